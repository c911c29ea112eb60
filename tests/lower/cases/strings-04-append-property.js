// String appends to object properties (0023: SANDBOX_ADDP grows a property's string in place) give Node's results
const out = [];
class Report { constructor() { this.out = ""; } add(line) { this.out += line + "\n"; return this; } }
const r = new Report(); for (let i = 0; i < 2000; i++) r.add("row " + i);
out.push(r.out.length, r.out.slice(-9));
const o = { text: "" }; const snaps = [];
for (let i = 0; i < 1500; i++) { o.text += `line ${i}\n`; if (i % 500 === 0) snaps.push(o.text); }
out.push(o.text.length, snaps.map((s) => s.length), snaps[2].slice(-9));
// computed and symbol keys, a key that is an array index
const k = "dyn"; const d = { [k]: "" }; for (let i = 0; i < 1000; i++) d[k] += i + ";"; out.push(d.dyn.length);
const sym = Symbol("s"); const so = { [sym]: "" }; for (let i = 0; i < 1000; i++) so[sym] += "ab"; out.push(so[sym].length);
const io = { 7: "" }; for (let i = 0; i < 1000; i++) io[7] += "x"; out.push(io[7].length);
// arrays and their elements
const arr = [""]; for (let i = 0; i < 1000; i++) arr[0] += "y"; out.push(arr[0].length, arr.length);
// an accessor: the setter sees every value
let setCalls = 0; const acc = { _v: "", get v() { return this._v; }, set v(x) { setCalls++; this._v = x; } };
for (let i = 0; i < 400; i++) acc.v += "z"; out.push(acc._v.length, setCalls);
// an inherited property: the append creates an own one, the prototype keeps its string
const proto = { t: "p".repeat(300) }; const child = Object.create(proto);
child.t += "c"; child.t += "d"; out.push(child.t.length, proto.t.length, Object.keys(child));
// frozen (non-writable) in strict code: TypeError, value unchanged
const frozen = Object.freeze({ f: "f".repeat(300) });
try { (function () { "use strict"; frozen.f += "x"; })(); } catch (e) { out.push(e.name); }
out.push(frozen.f.length);
// non-writable in sloppy code: silently unchanged
const ro = {}; Object.defineProperty(ro, "g", { value: "g".repeat(300), writable: false });
(function () { for (let i = 0; i < 3; i++) ro.g += "x"; })(); out.push(ro.g.length);
// a Proxy sees get and set
const log = []; const target = { s: "" };
const px = new Proxy(target, { get(t, p) { log.push("get"); return t[p]; }, set(t, p, v) { log.push("set"); t[p] = v; return true; } });
for (let i = 0; i < 300; i++) px.s += "q"; out.push(target.s.length, log.length);
// the same string held by two properties: the other keeps its value
const two = { a: "", b: "" }; for (let i = 0; i < 300; i++) two.a += "w"; two.b = two.a; two.a += "!"; two.a += "?";
out.push(two.a.length, two.b.length, two.b.endsWith("w"));
// the right side reads and changes the property
const rs = { v: "v".repeat(300) }; rs.v += (rs.v.length + ":" + (rs.v = "reset") + ";"); out.push(rs.v.length, rs.v.slice(-12));
// a number property becomes a string
const num = { n: 1 }; num.n += "s".repeat(300); num.n += "e"; out.push(num.n.length, num.n.slice(0, 3));
// JSON of an object whose string grew
const j = { body: "" }; for (let i = 0; i < 50; i++) j.body += "\u00e9\ud83d\ude00" + i; out.push(JSON.stringify(j).length, j.body.length);
return out;
