const ns = "p076";
const seed = { "session:a": 1, "session:b": 2, "session:c": 3, "user:a": "x", "user:b": "y" };
for (const [key, value] of Object.entries(seed)) await tools.kv.set({ ns, key, value });
const { keys } = await tools.kv.list({ ns, prefix: "session:", limit: 50 });
const deleted = await Promise.all(keys.map((key) => tools.kv.delete({ ns, key })));
const again = await tools.kv.delete({ ns, key: "session:a" });
const left = await tools.kv.list({ ns, limit: 50 });
console.log(`deleted ${deleted.filter((d) => d.deleted).length}, second delete -> ${again.deleted}`);
return left.keys;
