const ns = "p159";
const log = [];
async function withLock(name, fn) {
  await tools.kv.set({ ns, key: `lock:${name}`, value: true });
  log.push(`locked ${name}`);
  try {
    return await fn();
  } finally {
    await tools.kv.delete({ ns, key: `lock:${name}` });
    log.push(`unlocked ${name}`);
  }
}
let error;
try {
  await withLock("report", () => tools.github.get_issue({ repo: "acme/docs", number: 500 }));
} catch (e) {
  error = e.message;
}
const locks = await tools.kv.list({ ns, prefix: "lock:" });
return { log, error, locksLeft: locks.keys.length };
