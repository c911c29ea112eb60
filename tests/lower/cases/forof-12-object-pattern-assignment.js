// for-of with an object pattern as the assignment target (not a declaration): each value is read once
var x = null, y, rest, log = [];
for ({ x, y } of [{ x: 3 }, { x: 4, y: 5 }]) log.push([x, y]);
for ({ x, ...rest } of [{ x: 1, a: 2, b: 3 }]) log.push([x, rest]);
const src = [{ p: 1 }, { p: 2 }, { p: 3 }];
for ({ p: x } of src) log.push(x);
for ([x, y] of [[6, 7]]) log.push([x, y]);
log
