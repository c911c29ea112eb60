// Compare-and-set with retries when the version moved underneath us.
const ns = "p074";
await tools.kv.set({ ns, key: "balance", value: 100 });
async function addWithCas(delta) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    const cur = await tools.kv.get({ ns, key: "balance" });
    try {
      await tools.kv.set({ ns, key: "balance", value: cur.value + delta, if_version: cur.version });
      return attempt;
    } catch (e) {
      if (!(e instanceof ToolError) || !e.message.startsWith("Conflict")) throw e;
    }
  }
  throw new Error("too many conflicts");
}
const a1 = await addWithCas(25);
await tools.kv.set({ ns, key: "balance", value: 500 }); // someone else writes
let conflict = null;
try {
  await tools.kv.set({ ns, key: "balance", value: 0, if_version: 1 });
} catch (e) {
  conflict = e.message;
}
const a2 = await addWithCas(-50);
const final = await tools.kv.get({ ns, key: "balance" });
return { attempts: [a1, a2], conflict, final: final.value, version: final.version };
