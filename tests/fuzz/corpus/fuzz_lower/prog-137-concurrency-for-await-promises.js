// for await over an array of pending promises visits them in array order.
const pending = [250, 20, 120].map((ms) => tools.slow.wait({ ms, label: `w${ms}` }));
const seen = [];
for await (const r of pending) seen.push(r.label);
return seen;
