const rows = [{ v: 1 }, { v: 2 }, { v: -3 }, { v: 4 }];
const roots = rows.map((r) => {
  if (r.v < 0) throw new RangeError(`negative value ${r.v}`);
  return Math.sqrt(r.v);
});
return roots;
