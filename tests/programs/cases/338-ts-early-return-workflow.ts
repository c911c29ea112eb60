interface Issue { number: number; title: string; labels: string[]; state: string }
const repo = "acme/billing";
const open = (await tools.github.list_issues({ repo, state: "open" })) as Issue[];
if (open.length === 0) {
  console.log(`${repo}: nothing open, nothing to do`);
  return { repo, action: "none" as const };
}
const urgent = open.filter((i) => i.labels.includes("priority:high"));
return { repo, action: "triage", urgent: urgent.map((i) => i.number) };
