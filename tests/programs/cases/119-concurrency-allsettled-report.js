const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const settled = await Promise.allSettled(ids.map((id) => tools.flaky.unstable({ id })));
const ok = settled.filter((s) => s.status === "fulfilled").map((s) => s.value.value);
const failed = settled.map((s, i) => (s.status === "rejected" ? ids[i] : null)).filter((x) => x !== null);
console.log(`fulfilled=${ok.length} rejected=${failed.length}`);
return { sum: ok.reduce((a, b) => a + b, 0), failed, statuses: settled.map((s) => s.status[0]).join("") };
