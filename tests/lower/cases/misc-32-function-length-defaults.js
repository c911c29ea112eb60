// .length counts the parameters before the first default (or rest), for every kind of function
function f(a, b = 1, c) {}
var g = (a, b = 2, c) => a;
var o = { m(x = 1, y) {}, async n(a, b = 1) {}, *q(a = 1, ...r) {} };
class K { m(a, b = 1) {} static s(a = 1) {} }
var inBlock;
{ function blk(a = 1, b) {} inBlock = blk.length; }
[inBlock, f.length, g.length, o.m.length, o.n.length, o.q.length, K.prototype.m.length, K.s.length, g.name, f(1)]
