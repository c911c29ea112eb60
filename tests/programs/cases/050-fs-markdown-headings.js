const docs = await tools.fs.search_files({ path: "/project", pattern: "**/*.md" });
const outline = {};
for (const path of docs) {
  const md = await tools.fs.read_file({ path });
  outline[path] = md.split("\n").filter((l) => l.startsWith("#")).map((l) => {
    const level = l.match(/^#+/)[0].length;
    return `${"-".repeat(level)} ${l.replace(/^#+\s*/, "")}`;
  });
}
console.log(`${docs.length} markdown files`);
return outline;
