// for...of over strings longer than the engine's 64-code-point batches: pairs
// across a batch edge, lone surrogates, break and continue, nested loops.
const pieces = [];
for (const n of [62, 63, 64, 65, 127, 128, 129]) {
    const s = 'a'.repeat(n) + '😀' + 'b'.repeat(3) + '\ud800' + 'c' + '\udc00';
    const out = [];
    for (const ch of s) out.push(ch.length === 2 ? 'P' : ch.charCodeAt(0) >= 0xd800 ? 'L' : ch);
    pieces.push(out.length + ':' + out.slice(n - 2).join(''));
}
let seen = '';
outer: for (const a of 'xyz'.repeat(40)) {
    for (const b of '12') {
        if (b === '2') continue outer;
        seen += a + b;
    }
    if (seen.length > 150) break;
}
let count = 0;
for (const ch of 'é'.repeat(200)) { if (ch !== 'é') count = -1000; count++; }
const s2 = 'q'.repeat(70);
let i = 0, early = '';
for (const c of s2) { if (++i > 66) break; early = c + i; }
return [pieces, seen.length, seen.slice(-6), count, early];
