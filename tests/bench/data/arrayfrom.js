// Array.from({length}) pipelines: map/filter/reduce, a grid flattened, flatMap, Set, includes.
const t0 = Date.now();
const sq = Array.from({ length: 100000 }, (_, i) => i * i);
const evens = sq.filter((x) => x % 2 === 0).map((x) => x / 2);
const total = evens.reduce((a, b) => a + b, 0);
const grid = Array.from({ length: 300 }, (_, r) => Array.from({ length: 100 }, (_, c) => r * c));
const flat = grid.flat().filter((x) => x % 3 === 0);
const pairs = Array.from({ length: 20000 }, (_, i) => [i % 10, i]).flatMap(([k, v]) => (k ? [v] : []));
const uniq = Array.from(new Set(pairs.map((x) => x % 1000)));
const idx = Array.from({ length: 50000 }, (_, i) => i).some((i) => i === 49999) && sq.includes(99998 * 99998) && sq.indexOf(4) === 2;
return { ms: Date.now() - t0, check: [evens.length, total, flat.length, pairs.length, uniq.length, idx, sq.at ? sq.at(-1) : 0] };
