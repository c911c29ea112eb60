const table = [[1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"], [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];
const toRoman = (n) => table.reduce((acc, [v, s]) => { while (n >= v) { acc += s; n -= v; } return acc; }, "");
const fromRoman = (s) => {
  const val = Object.fromEntries(table.filter(([, k]) => k.length === 1).map(([v, k]) => [k, v]));
  return [...s].reduce((sum, ch, i, arr) => (val[ch] < (val[arr[i + 1]] ?? 0) ? sum - val[ch] : sum + val[ch]), 0);
};
const years = [1987, 2024, 3999, 444];
return years.map((y) => { const r = toRoman(y); return `${y}=${r}=${fromRoman(r)}`; });
