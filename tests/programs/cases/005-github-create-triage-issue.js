const repo = "acme/gadgets";
const open = await tools.github.list_issues({ repo, state: "open" });
const stale = open.filter((i) => i.comments <= 3);
const body = [
  `Found ${stale.length} open issues with at most 3 comments:`,
  ...stale.map((i) => `- #${i.number} ${i.title}`),
].join("\n");
const created = await tools.github.create_issue({
  repo,
  title: `Triage: ${stale.length} issues need a first response`,
  body,
  labels: ["triage"],
});
console.log(`created #${created.number}: ${created.url}`);
return { number: created.number, state: created.state, staleNumbers: stale.map((i) => i.number) };
