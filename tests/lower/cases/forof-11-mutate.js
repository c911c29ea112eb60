const a = [1, 2];
const seen = [];
for (const x of a) { seen.push(x); if (a.length < 4) a.push(x * 10); }
seen
