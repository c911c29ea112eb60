interface Inventory { [sku: string]: { qty: number; price: number } }
const inv: Inventory = {
  "KB-1": { qty: 3, price: 89 },
  "MS-2": { qty: 0, price: 29 },
  "HB-3": { qty: 12, price: 39 },
};
const value = (i: Inventory): number => Object.values(i).reduce((s, { qty, price }) => s + qty * price, 0);
const restock = (i: Inventory, min: number): string[] => Object.keys(i).filter((k) => i[k].qty < min).sort();
const lookup: Partial<Record<"a" | "b" | "c", number>> = { a: 1, c: 3 };
return { value: value(inv), restock: restock(inv, 5), b: lookup.b ?? 0, keys: Object.keys(lookup) };
