(async function main() {
  const files = await tools.fs.list_dir({ path: "/project/docs" });
  return files.map((f) => f.name);
})
