// Regex extraction over 1 MB of log text: match /g, an exec loop, test per line, matchAll, replace.
const words = ['alpha', 'beta', 'gamma', 'delta', 'error', 'warning', 'info'];
const lines = [];
let size = 0;
for (let i = 0; size < 1048576; i++) {
    const l = `2026-03-${String(1 + (i % 28)).padStart(2, '0')}T12:${String(i % 60).padStart(2, '0')}:00Z ${words[i % 7].toUpperCase()} ` +
        `user${i % 313}@example.com id=${(i * 7919) % 100000} ${words[(i * 3) % 7]} took ${(i * 17) % 900}ms`;
    lines.push(l);
    size += l.length + 1;
}
const text = lines.join('\n');
const t0 = Date.now();
const emails = text.match(/[a-z0-9]+@[a-z]+\.com/g);
const ids = [];
const re = /id=(\d+)/g;
let m;
while ((m = re.exec(text)) !== null) ids.push(Number(m[1]));
const errs = text.split('\n').filter((l) => /\bERROR\b/.test(l)).length;
let slow = 0;
for (const mm of text.matchAll(/took (\d+)ms/g)) if (+mm[1] > 800) slow++;
const masked = text.replace(/user(\d+)@/g, (_, d) => 'u' + d.length + '@');
return { ms: Date.now() - t0, check: [text.length, emails.length, ids.length, ids[ids.length - 1], errs, slow, masked.length] };
