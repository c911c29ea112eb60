// List the first page of issues, then fetch the 5 most commented in parallel.
const repo = "acme/api-server";
const list = await tools.github.list_issues({ repo, state: "all", per_page: 50 });
const top = [...list].sort((a, b) => b.comments - a.comments || a.number - b.number).slice(0, 5);
const details = await Promise.all(top.map((i) => tools.github.get_issue({ repo, number: i.number })));
for (const d of details) console.log(`#${d.number} ${d.comments} comments, ${d.assignees.length} assignee(s)`);
return details.map(({ number, title, state, url }) => ({ number, title, state, url }));
