// A model's slip: the details are fetched but not awaited, and the labels are
// counted in a Map. JSON shows {} for each; the result warns how to keep them.
const repo = "acme/api-server";
const list = await tools.github.list_issues({ repo, state: "all", per_page: 50 });
const byLabel = new Map();
for (const issue of list) for (const l of issue.labels ?? []) byLabel.set(l, (byLabel.get(l) ?? 0) + 1);
const details = list.slice(0, 4).map((i) => tools.github.get_issue({ repo, number: i.number }));
await Promise.all(details); // settled, but the result still holds the promises
return { count: list.length, byLabel, details, labels: Object.fromEntries(byLabel) };
