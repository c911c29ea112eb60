const sales = [
  { region: "north", product: "a", units: 5 },
  { region: "south", product: "b", units: 3 },
  { region: "north", product: "b", units: 2 },
  { region: "east", product: "a", units: 7 },
  { region: "south", product: "a", units: 1 },
  { region: "north", product: "a", units: 4 },
];
const byRegion = sales.reduce((acc, s) => {
  (acc[s.region] ??= []).push(s);
  return acc;
}, {});
const totals = Object.fromEntries(Object.entries(byRegion).map(([r, list]) => [r, list.reduce((n, s) => n + s.units, 0)]));
const nested = {};
for (const { region, product, units } of sales) {
  nested[region] ??= {};
  nested[region][product] = (nested[region][product] ?? 0) + units;
}
const byProduct = new Map();
for (const s of sales) byProduct.set(s.product, [...(byProduct.get(s.product) ?? []), s.region]);
return { totals, nested, byProduct: Object.fromEntries(byProduct), regions: Object.keys(byRegion) };
