// A generated mix of appends to locals, closure variables and properties, with copies kept in arrays and a Set, resets and slices (0023): Node's strings
let s = "", t = "x".repeat(250); const o = { p: "", q: "" }; const box = { v: "" }; const keep = []; const seen = new Set();
const addS = (v) => { s += v; }; const addT = (v) => { t += v; };
for (let i = 0; i < 400; i++) {
  if (i % 97 === 0) { box.v = ""; }
  addS("a"); addT("a");
  box.v += "\0";
  t += (i * 1.5);
  addS((i * 1.5)); addT((i * 1.5));
  if (i % 97 === 0) { s = ""; }
  if (i % 97 === 0) { t = ""; }
  addS(-0); addT(-0);
}
const all = [s, t, o.p, o.q, box.v, ...keep];
return [all.map((x) => x.length), all.map((x) => { let h = 0; for (let j = 0; j < x.length; j++) h = (h * 31 + x.charCodeAt(j)) | 0; return h; }), seen.size, [...seen].map((x) => x.length), keep.filter((x) => seen.has(x)).length, s === t, o.p === box.v];
