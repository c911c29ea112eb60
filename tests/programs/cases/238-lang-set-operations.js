const a = new Set([1, 2, 3, 4, 5]);
const b = new Set([4, 5, 6, 7]);
const union = new Set([...a, ...b]);
const intersection = new Set([...a].filter((x) => b.has(x)));
const difference = new Set([...a].filter((x) => !b.has(x)));
const symmetric = new Set([...a, ...b].filter((x) => !(a.has(x) && b.has(x))));
const isSubset = (s, t) => [...s].every((x) => t.has(x));
const dedupeBy = (arr, key) => [...new Map(arr.map((x) => [x[key], x])).values()];
const people = [{ id: 1, v: "a" }, { id: 2, v: "b" }, { id: 1, v: "c" }];
return {
  union: [...union], intersection: [...intersection], difference: [...difference], symmetric: [...symmetric],
  subset: isSubset(new Set([4, 5]), a), notSubset: isSubset(b, a),
  dedupe: dedupeBy(people, "id"),
  sizeAfterDelete: (a.delete(1), a.size),
  cleared: (b.clear(), b.size),
};
