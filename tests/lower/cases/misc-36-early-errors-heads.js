// early errors: for (let/async of ...), a non-target in a for-of head, { yield } in a
// generator and { await } in an async function or static block
const out = [];
for (const src of ["for (let of []) ;", "for (async of []) ;", "for ((this) of []) ;", "function* g() { ({ yield } = {}); }", "async function f() { ({ await } = {}); }", "class C { static { ({ await }); } }", "for (\\u0061sync of []) ;", "for ((x) of []) ;", "var yield; ({ yield } = {});", "for (let in {}) ;"]) {
  try { new Function(src); out.push("ok"); } catch (e) { out.push(e.name); }
}
console.log(out.join("|"));
