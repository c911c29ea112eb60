// read_file on a JSON file gives the parsed object (single JSON text item).
const pkg = await tools.fs.read_file({ path: "/project/package.json" });
const deps = Object.entries(pkg.dependencies ?? {});
const dev = Object.keys(pkg.devDependencies ?? {});
console.log(`${pkg.name}@${pkg.version}: ${deps.length} deps, ${dev.length} dev deps`);
return {
  name: pkg.name,
  scripts: Object.keys(pkg.scripts),
  caretDeps: deps.filter(([, v]) => v.startsWith("^")).map(([k]) => k),
};
