const [readme, pkg] = await Promise.all([
  tools.fs.read_file({ path: "/project/README.md" }),
  tools.fs.read_file({ path: "/project/package.json" }),
]);
const checks = {
  mentionsName: readme.includes(pkg.name),
  hasInstall: /^## Install$/m.test(readme),
  hasUsage: /^## Usage$/m.test(readme),
  hasLicense: /^## License$/im.test(readme),
  todoCount: (readme.match(/TODO/g) || []).length,
};
const failing = Object.entries(checks).filter(([k, v]) => v === false).map(([k]) => k);
if (failing.length) console.warn("README is missing:", failing);
return checks;
