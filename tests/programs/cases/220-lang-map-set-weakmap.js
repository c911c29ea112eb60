const m = new Map();
const keyObj = { id: 1 };
m.set(keyObj, "object key").set("s", "string key").set(1, "number key").set(NaN, "nan key");
const s = new Set([1, 2, 3]);
s.add(2).add(4);
s.delete(1);
const wm = new WeakMap();
wm.set(keyObj, { visits: 3 });
const ws = new WeakSet([keyObj]);
return {
  size: m.size,
  objGet: m.get(keyObj),
  nanGet: m.get(NaN),
  hasOther: m.has({ id: 1 }),
  entries: [...m.entries()].map(([k, v]) => `${typeof k}:${v}`),
  set: [...s],
  hasSet: s.has(4),
  weak: wm.get(keyObj).visits,
  weakHasOther: wm.has({}),
  weakSet: ws.has(keyObj),
};
