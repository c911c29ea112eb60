const hits = await tools.fs.grep({ path: "/project", query: "TODO" });
const byFile = {};
for (const h of hits) (byFile[h.file] ??= []).push(h.line);
console.log(`${hits.length} TODOs in ${Object.keys(byFile).length} files`);
const fixmes = await tools.fs.grep({ path: "/project/src", query: "fixme", ignore_case: true });
return { todos: byFile, fixmes: fixmes.map((f) => `${f.file.replace("/project/", "")}:${f.line}`) };
