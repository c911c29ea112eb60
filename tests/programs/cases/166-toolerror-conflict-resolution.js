const ns = "p166";
await tools.kv.set({ ns, key: "cfg", value: { v: 1 } });
const stale = await tools.kv.get({ ns, key: "cfg" });
await tools.kv.set({ ns, key: "cfg", value: { v: 2 } });
let outcome;
try {
  await tools.kv.set({ ns, key: "cfg", value: { v: 99 }, if_version: stale.version });
  outcome = "overwrote";
} catch (e) {
  const fresh = await tools.kv.get({ ns, key: "cfg" });
  await tools.kv.set({ ns, key: "cfg", value: { v: fresh.value.v + 1 }, if_version: fresh.version });
  outcome = `merged after ${e.message.split(":")[0]}`;
}
const final = await tools.kv.get({ ns, key: "cfg" });
return { outcome, value: final.value, version: final.version };
