const people = [
  { name: "Zoe", age: 30 },
  { name: "adam", age: 25 },
  { name: "Bob", age: 30 },
  { name: "carl", age: 19 },
];
const byAgeThenName = [...people].sort((a, b) => a.age - b.age || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const caseInsensitive = [...people].sort((a, b) => {
  const x = a.name.toLowerCase(), y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
});
return {
  defaultNumbers: [10, 9, 1, 100, 25].sort(),
  numeric: [10, 9, 1, 100, 25].sort((a, b) => a - b),
  defaultStrings: ["b", "B", "a", "A", "_", "1"].sort(),
  byAgeThenName: byAgeThenName.map((p) => p.name),
  caseInsensitive: caseInsensitive.map((p) => p.name),
  descending: [3, 1, 2].sort((a, b) => b - a),
  undefinedsLast: [3, undefined, 1].sort(),
};
