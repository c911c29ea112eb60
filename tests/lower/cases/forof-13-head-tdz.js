// for (let x of EXPR): EXPR sees the head's x in its TDZ, not an outer x
const out = [];
let x = [1];
try { for (let x of x) out.push(x); } catch (e) { out.push(e.name); }
try { for (const [a, b] of [[b, 1]]) out.push(a); } catch (e) { out.push(e.name); }
for (let y of x) out.push(y);
for (const k in { p: 1 }) out.push(k);
console.log(out.join("|"));
