// A tiny job queue on top of kv: enqueue, then drain in order.
const ns = "p078";
const jobs = ["resize:a.png", "resize:b.png", "email:welcome", "report:weekly"];
for (const [i, job] of jobs.entries()) {
  await tools.kv.set({ ns, key: `job:${String(i).padStart(4, "0")}`, value: { job, state: "queued" } });
}
const processed = [];
while (true) {
  const { keys } = await tools.kv.list({ ns, prefix: "job:", limit: 1 });
  if (keys.length === 0) break;
  const { value } = await tools.kv.get({ ns, key: keys[0] });
  processed.push(value.job.split(":")[0]);
  await tools.kv.delete({ ns, key: keys[0] });
}
console.log(`processed ${processed.length} jobs`);
return processed;
