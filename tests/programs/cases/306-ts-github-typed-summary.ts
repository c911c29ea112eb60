interface Issue {
  number: number;
  title: string;
  state: "open" | "closed";
  labels: string[];
  comments: number;
}
type Summary = { repo: string; open: number; topLabels: [string, number][] };

async function summarize(repo: string): Promise<Summary> {
  const issues = (await tools.github.list_issues({ repo, state: "all", per_page: 100 })) as Issue[];
  const counts = new Map<string, number>();
  for (const issue of issues) {
    for (const label of issue.labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const topLabels = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
  return { repo, open: issues.filter((i) => i.state === "open").length, topLabels };
}
const results: Summary[] = await Promise.all(["acme/widgets", "globex/core"].map(summarize));
console.log(results.map((r) => `${r.repo}: ${r.open} open`).join("; "));
return results;
