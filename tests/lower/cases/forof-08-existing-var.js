let last;
const o = {};
for (last of [1, 2]) ;
for (o.p of ['x', 'y']) ;
[last, o.p]
