const a = [1, 2, 3];
const b = [0, ...a, 4, ...[5, 6]];
const merged = { ...{ x: 1, y: 2 }, y: 20, ...{ z: 3 }, ...null, ...undefined };
const copy = [...a];
copy.push(99);
const max = Math.max(...b);
const chars = [..."héllo"];
const fromSet = [...new Set([3, 1, 3, 2, 1])];
function tail(head, ...others) { return { head, others, n: arguments.length }; }
const withArgs = tail(...["h", "t1", "t2"]);
const { x, ...restObj } = merged;
return { b, merged, original: a, copy, max, chars, fromSet, withArgs, restObj };
