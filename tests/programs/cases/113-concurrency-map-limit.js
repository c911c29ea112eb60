// A worker pool that keeps at most 3 calls in flight.
async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
const key = "p113";
const out = await mapLimit([..."abcdefghi"], 3, async (ch, i) => {
  await tools.slow.enter({ key, ms: 60 + (i % 3) * 20 });
  return ch.toUpperCase() + i;
});
const { peak, calls } = await tools.slow.peak({ key });
console.log(out.join(" "));
return { peak, calls };
