// A name from inference (const f = function () {}) is the function's name
// but binds nothing inside it: the body sees the outer variable, as in Node.
let f = function () { return typeof f === "function" ? "fn" : f; };
const keep = f;
f = "reassigned";
let a = () => (typeof a === "function" ? "fn" : a);
const keepA = a;
a = 7;
const named = function inner() { return typeof inner; };
const obj = { m: function () { return typeof m; } };
return [keep.name, keep(), keepA.name, keepA(), named(), named.name, obj.m.name, obj.m()];
