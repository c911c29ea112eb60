const FLAGS = { READ: 1, WRITE: 2, EXEC: 4, ADMIN: 8 };
let perms = FLAGS.READ | FLAGS.WRITE;
perms |= FLAGS.EXEC;
perms &= ~FLAGS.WRITE;
const has = (p, f) => (p & f) === f;
const popcount = (n) => { let c = 0; while (n) { n &= n - 1; c++; } return c; };
return {
  perms,
  names: Object.entries(FLAGS).filter(([, f]) => has(perms, f)).map(([k]) => k),
  shifts: [1 << 10, -16 >> 2, -16 >>> 28, 5 ^ 3],
  popcount: popcount(0b1011_0111),
  toBinary: (42).toString(2).padStart(8, "0"),
  int32: (2 ** 32 + 5) | 0,
  not: ~5,
};
