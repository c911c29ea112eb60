const ns = "p077";
await tools.kv.set({ ns, key: "name", value: "not a number" });
await tools.kv.set({ ns, key: "n", value: 41 });
const results = {};
for (const key of ["n", "name", "fresh"]) {
  try {
    results[key] = await tools.kv.incr({ ns, key });
  } catch (e) {
    results[key] = `${e.name}: ${e.message}`;
  }
}
return results;
