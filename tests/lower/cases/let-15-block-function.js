const r = [];
{ function g() { return 'g1'; } r.push(g()); }
if (true) { function h() { return 'h'; } r.push(h()); }
r
