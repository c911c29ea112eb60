// Process a queue two at a time; results come back in input order.
const key = "p133";
const queue = ["Berlin", "Lima", "Tokyo", "Cairo", "Sydney"];
const results = [];
const inFlight = new Set();
for (const [i, city] of queue.entries()) {
  const p = (async () => {
    await tools.slow.enter({ key, ms: 40 });
    results[i] = (await tools.weather.current({ city })).temp;
  })();
  inFlight.add(p);
  p.finally(() => inFlight.delete(p));
  if (inFlight.size >= 2) await Promise.race(inFlight);
}
await Promise.all(inFlight);
const { peak } = await tools.slow.peak({ key });
return { results, peakAtMost2: peak <= 2, peak };
