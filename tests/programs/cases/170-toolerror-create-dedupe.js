// Skip creating issues whose title already exists (case-insensitive).
const repo = "acme/sdk-js";
const existing = await tools.github.list_issues({ repo, state: "all", per_page: 100 });
const titles = new Set(existing.map((i) => i.title.toLowerCase()));
const wanted = [existing[0].title.toUpperCase(), "Upgrade the build toolchain", "upgrade the BUILD toolchain"];
const created = [], skipped = [];
for (const title of wanted) {
  if (titles.has(title.toLowerCase())) { skipped.push(title); continue; }
  const r = await tools.github.create_issue({ repo, title });
  titles.add(title.toLowerCase());
  created.push(r.number);
}
return { created: created.length, skipped };
