// Recursively list /project with list_dir.
async function walk(dir, depth = 0) {
  const entries = await tools.fs.list_dir({ path: dir });
  const lines = [];
  for (const e of entries) {
    lines.push(`${"  ".repeat(depth)}${e.name}${e.type === "dir" ? "/" : ""}`);
    if (e.type === "dir") lines.push(...(await walk(`${dir}/${e.name}`, depth + 1)));
  }
  return lines;
}
const tree = await walk("/project");
tree.forEach((l) => console.log(l));
return tree.length;
