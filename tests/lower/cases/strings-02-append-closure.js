// String appends to variables of enclosing functions (0023: SANDBOX_ADDV) give exactly Node's strings
const out = [];
function mk() { let s = ""; return { add(x) { s += x; }, get() { return s; } }; }
const a = mk(), b = mk();
for (let i = 0; i < 2000; i++) { a.add("a" + i); if (i % 3 === 0) b.add("b" + i); }
out.push(a.get().length, b.get().length, a.get().slice(-10), b.get().slice(0, 10));
// a captured string also stored elsewhere: the copy must not change
let t = ""; const saved = [];
const addT = (x) => { t += x; };
for (let i = 0; i < 1000; i++) { addT("t" + i + ";"); if (i % 250 === 0) saved.push(t); }
out.push(saved.map(x => x.length), t.length, saved[3].slice(-8));
// expression value of a compound assignment in a closure
let u = "u".repeat(300); const vals = [];
const addU = (x) => vals.push((u += x).length);
for (let i = 0; i < 100; i++) addU("xy");
out.push(vals.slice(-3), u.length);
// with: the object's property is the binding
const w = { s: "w".repeat(300) };
(function () { var s = "outer"; with (w) { for (let i = 0; i < 300; i++) s += "!"; } out.push(s, w.s.length); })();
// the right side reads and changes the variable
let v = "v".repeat(300);
const addV = () => { v += (v.length + ":" + (v = "reset") + ";"); };
addV(); addV(); out.push(v.length, v.slice(0, 20));
// the value is a number first, then a string
let n = 5; const addN = (x) => { n += x; }; addN(1); addN("s".repeat(300)); addN(7); out.push(n.length, n.slice(0, 3), n.slice(-2));
// an equal string exists: identity in Set/Map keys
let eq = "e".repeat(400); const m = new Map([["e".repeat(401), "hit"]]); const addE = () => { eq += "e"; }; addE();
out.push(m.get(eq), eq === "e".repeat(401));
// += with an object on the right: valueOf sees the old value
let p = "p".repeat(300); const seen = [];
const addP = () => { p += { toString() { seen.push(p.length); return "!"; } }; };
addP(); addP(); out.push(seen, p.length);
// exception in the right side leaves the variable as it was
let q = "q".repeat(300); const addQ = () => { q += (() => { throw new Error("boom"); })(); };
try { addQ(); } catch (e) { out.push(e.message, q.length); }
return out;
