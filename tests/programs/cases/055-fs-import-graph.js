// Build an import graph of the JS sources.
const sources = await tools.fs.search_files({ path: "/project", pattern: "**/*.js" });
const graph = {};
await Promise.all(sources.map(async (file) => {
  const code = await tools.fs.read_file({ path: file });
  const imports = [...code.matchAll(/import\s+\{([^}]*)\}\s+from\s+'([^']+)'/g)].map((m) => ({
    names: m[1].split(",").map((s) => s.trim()),
    from: m[2],
  }));
  graph[file.replace("/project/", "")] = imports;
}));
const ordered = Object.keys(graph).sort();
for (const f of ordered) console.log(f, "->", graph[f].map((i) => i.from).join(", ") || "(none)");
return Object.fromEntries(ordered.map((f) => [f, graph[f].flatMap((i) => i.names)]));
