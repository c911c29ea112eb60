const delays = [300, 10, 150, 60];
const results = await Promise.all(delays.map((ms, i) => tools.slow.wait({ ms, label: `#${i}` })));
return results.map((r) => `${r.label}:${r.ms}`);
