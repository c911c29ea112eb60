let r = [];
a: { r.push(1); break a; }
b: for (var i = 0; i < 3; i++) { if (i === 1) continue b; r.push(i); }
r
