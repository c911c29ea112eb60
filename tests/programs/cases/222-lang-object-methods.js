const inventory = { apples: 3, pears: 0, plums: 7 };
const entries = Object.entries(inventory);
const doubled = Object.fromEntries(entries.map(([k, v]) => [k, v * 2]));
const inStock = Object.fromEntries(entries.filter(([, v]) => v > 0));
const target = Object.assign({}, { a: 1 }, { b: 2 }, { a: 3 });
const proto = { greet() { return "hi"; } };
const child = Object.create(proto, { own: { value: 1, enumerable: true } });
const sealed = Object.seal({ x: 1 });
sealed.y = 2;
delete sealed.x;
return {
  keys: Object.keys(inventory),
  values: Object.values(inventory),
  doubled, inStock, target,
  childKeys: Object.keys(child),
  childGreets: child.greet(),
  sealed,
  hasOwn: [Object.hasOwn(child, "own"), Object.hasOwn(child, "greet")],
  is: [Object.is(NaN, NaN), Object.is(0, -0), NaN === NaN],
  names: Object.getOwnPropertyNames({ q: 1, r: 2 }),
};
