// Four 200 ms calls in parallel take far less than in sequence.
let t0 = Date.now();
await Promise.all([1, 2, 3, 4].map((i) => tools.slow.wait({ ms: 200, label: `p${i}` })));
const parallel = Date.now() - t0;
t0 = Date.now();
for (let i = 0; i < 4; i++) await tools.slow.wait({ ms: 150, label: `s${i}` });
const sequential = Date.now() - t0;
return { parallelUnder700: parallel < 700, parallelAtLeast190: parallel >= 190, sequentialAtLeast550: sequential >= 550 };
