const trace = [];
function f(n) {
  try {
    trace.push(`try${n}`);
    if (n === 1) return "returned";
    if (n === 2) throw new Error("thrown");
    return "normal";
  } catch (e) {
    trace.push(`catch${n}`);
    return `caught:${e.message}`;
  } finally {
    trace.push(`finally${n}`);
  }
}
function overriding() {
  try { return "try"; } finally { return "finally wins"; }
}
function nested() {
  try {
    try { throw new TypeError("inner"); }
    finally { trace.push("inner finally"); }
  } catch (e) { return `${e.name}:${e.message}`; }
}
const loop = [];
for (let i = 0; i < 3; i++) {
  try { if (i === 1) continue; loop.push(i); } finally { loop.push(`f${i}`); }
}
return { results: [f(1), f(2), f(3)], overriding: overriding(), nested: nested(), trace, loop };
