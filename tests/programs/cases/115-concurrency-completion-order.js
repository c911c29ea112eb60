// Completion order follows the delays (well separated), not the call order.
const finished = [];
const track = (p) => p.then((r) => { finished.push(r.label); return r; });
const results = await Promise.all([
  track(tools.slow.wait({ ms: 400, label: "long" })),
  track(tools.slow.wait({ ms: 10, label: "short" })),
  track(tools.slow.wait({ ms: 200, label: "mid" })),
]);
console.log("finished:", finished.join(" > "));
return { finished, resultOrder: results.map((r) => r.label) };
