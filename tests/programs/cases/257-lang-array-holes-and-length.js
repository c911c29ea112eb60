const a = [1, , 3];
const b = [];
b[5] = "x";
const c = [1, 2, 3, 4];
c.length = 2;
return {
  aLen: a.length,
  hasHole: !(1 in a),
  mapSkipsHoles: a.map((x) => x * 2),
  forEachCount: (() => { let n = 0; a.forEach(() => n++); return n; })(),
  fromFillsHoles: Array.from(a),
  bLen: b.length,
  truncated: c,
  joinHoles: [1, , null, undefined, 2].join("-"),
  jsonHoles: JSON.stringify([1, , 3]),
  spreadHoles: [...[, "x"]],
};
