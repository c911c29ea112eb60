const repo = "globex/core";
const open = await tools.github.list_issues({ repo, per_page: 100 });
const details = await Promise.all(open.map(({ number }) => tools.github.get_issue({ repo, number })));
const load = {};
let unassigned = 0;
for (const issue of details) {
  if (!issue.assignees.length) { unassigned++; continue; }
  for (const a of issue.assignees) load[a] = (load[a] || 0) + 1;
}
const busiest = Object.keys(load).reduce((best, k) => (load[k] > (load[best] ?? -1) || (load[k] === load[best] && k < best) ? k : best), null);
console.log(`open=${open.length} unassigned=${unassigned}`);
return { load, unassigned, busiest };
