// Release notes from closed issues, saved to a file.
const repo = "acme/cli";
const [pkg, closed] = await Promise.all([
  tools.fs.read_file({ path: "/project/package.json" }),
  tools.github.list_issues({ repo, state: "closed", per_page: 100 }),
]);
const sections = { bug: "Fixes", enhancement: "Features", docs: "Docs" };
const grouped = {};
for (const i of closed) {
  const key = i.labels.find((l) => l in sections) ?? "other";
  (grouped[key] ??= []).push(`- ${i.title} (#${i.number})`);
}
const md = [`# ${pkg.name} ${pkg.version}`, ...Object.keys(sections).concat("other").filter((k) => grouped[k]).flatMap((k) => ["", `## ${sections[k] ?? "Other"}`, ...grouped[k]])].join("\n");
const ok = await tools.fs.write_file({ path: "/project/CHANGELOG.md", content: md });
console.log(md);
return ok;
