const probes = ["/project/src", "/project/README.md", "/nowhere"];
const out = {};
for (const p of probes) {
  try {
    const entries = await tools.fs.list_dir({ path: p });
    out[p] = `${entries.length} entries`;
  } catch (e) {
    out[p] = e.message.slice(0, e.message.indexOf(":"));
  }
}
return out;
