// String appends (0023: in place when the variable holds the only reference) give exactly Node's strings
// exactness checks: results compared with Node
const out = [];
let s = "";
for (let i = 0; i < 3000; i++) { s += `${i}:\u00e9\ud83d\ude00,`; if (i % 500 === 0) out.push(s.length, s.charCodeAt(s.length - 2), s.slice(-12)); }
out.push(s.length, s.indexOf("2999:"), s.lastIndexOf("\ud83d"), s.codePointAt(s.length - 3));
// equality and interning with a string built another way
const parts = []; for (let i = 0; i < 3000; i++) parts.push(`${i}:\u00e9\ud83d\ude00,`);
const j = parts.join("");
out.push(j === s, j.length === s.length, s < j + "x", (s + "") === j);
// as property keys
const o = {}; o[s] = 1; out.push(o[j], Object.keys(o)[0] === j);
// the shared case: a copy kept while appending
let a = "x".repeat(300); const keep = a; a += "y"; a += "z"; out.push(keep.length, a.length, keep === "x".repeat(300), a.endsWith("yz"));
// equal string exists already: result must be === to it and the old value intact
let b = "q".repeat(299); const target = "q".repeat(300); b += "q"; out.push(b === target, b.length);
b += "r"; out.push(b.length, target.length, target.endsWith("q"));
// s += s
let d = "ab".repeat(200); for (let i = 0; i < 5; i++) d += d; out.push(d.length, d.slice(-4));
// numbers and objects with side effects
let e = "n".repeat(300); let calls = 0;
const obj = { toString() { calls++; return "T" + e.length; }, valueOf() { calls++; return 7; } };
e += 1.5; e += -0; e += NaN; e += 1e21; e += obj; e += true; e += null; e += undefined;
out.push(e.slice(300), calls);
// reading the variable in the right-hand side
let f = "f".repeat(300); f += f.length + ":" + (f = "reset", f.length); out.push(f.length, f.slice(-12));
// NUL and regex
let g = "\0".repeat(260); g += "a\0b"; out.push(g.length, /a\0b$/.test(g), g.charCodeAt(0), JSON.stringify(g.slice(-4)));
// JSON and regex over a built string
let h = ""; for (let i = 0; i < 1000; i++) h += `"k${i}":${i},`; h = "{" + h.slice(0, -1) + "}";
const parsed = JSON.parse(h); out.push(parsed.k999, Object.keys(parsed).length, (h.match(/k\d+/g) || []).length, JSON.stringify(h).length);
// closure variable and property targets
let c = ""; [1,2,3].forEach(n => { for (let i = 0; i < 200; i++) c += n; }); out.push(c.length, c.slice(198, 203));
const holder = { t: "" }; for (let i = 0; i < 500; i++) holder.t += "ab"; out.push(holder.t.length);
// comparison and switch on the built string
let k = "k".repeat(255); k += "k"; switch (k) { case "k".repeat(256): out.push("switch ok"); break; default: out.push("switch bad"); }
out.push(k > "k".repeat(255), k < "k".repeat(257), k.localeCompare("k".repeat(256)));
// join of many elements, holes, null, undefined, objects
const big = []; for (let i = 0; i < 10000; i++) big.push(i % 7 === 0 ? null : i % 11 === 0 ? undefined : i % 13 === 0 ? { toString() { return "o"; } } : i);
big.length = 10005; const jj = big.join("--"); out.push(jj.length, jj.slice(0, 30), jj.slice(-20));
out.push([].concat(new Array(5000).fill("ab")).join().length, new Array(5000).join("xy").length);
// strings as keys of Map and in template literal concatenations
const m = new Map(); let mk = "m".repeat(300); m.set(mk, 1); mk += "!"; out.push(m.get("m".repeat(300)), m.has(mk), mk.length);
return out;
