const f = ({ a: { b: [c, d = 'dd'] } }, ...[e, f]) => [c, d, e, f];
f({ a: { b: ['cc'] } }, 'e', 'f')
