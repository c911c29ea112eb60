const items = [
  { id: 1, name: "pen", price: 1.5, tags: ["office"] },
  { id: 2, name: "desk", price: 120, tags: ["office", "furniture"] },
  { id: 3, name: "lamp", price: 35, tags: ["furniture", "lighting"] },
];
return {
  find: items.find((i) => i.price > 30)?.name,
  findIndex: items.findIndex((i) => i.name === "lamp"),
  includes: [1, 2, NaN].includes(NaN),
  indexOfNaN: [1, 2, NaN].indexOf(NaN),
  from: Array.from({ length: 4 }, (_, i) => i ** 2),
  of: Array.of(7, 8),
  fill: new Array(3).fill("x"),
  flat: [1, [2, [3, [4]]]].flat(),
  flatInf: [1, [2, [3, [4]]]].flat(Infinity),
  flatMap: items.flatMap((i) => i.tags),
  at: [items.at(0).id, items.at(-1).id],
  keys: [...["a", "b"].keys()],
  copyWithin: [1, 2, 3, 4, 5].copyWithin(0, 3),
  every: items.every((i) => i.tags.length > 0),
};
