const ns = "p081";
const versions = [];
for (const value of ["draft", "review", "final"]) {
  const r = await tools.kv.set({ ns, key: "doc", value });
  versions.push(r.version);
}
await tools.kv.delete({ ns, key: "doc" });
const after = await tools.kv.get({ ns, key: "doc" });
const re = await tools.kv.set({ ns, key: "doc", value: "reborn" });
return { versions, afterDelete: { found: after.found, version: after.version }, recreated: re.version };
