const repo = "acme/api-server";
const urgent = await tools.github.list_issues({ repo, labels: ["priority:high"], per_page: 100 });
console.log(`${urgent.length} high-priority open issues`);
const confirmations = [];
for (const issue of urgent.slice(0, 3)) {
  const msg = await tools.github.add_comment({
    repo,
    number: issue.number,
    body: `Bumping: open since ${issue.created_at.slice(0, 10)}`,
  });
  confirmations.push(msg);
}
confirmations.forEach((c) => console.log(c));
return { commented: confirmations.length, allConfirmed: confirmations.every((c) => c.startsWith("Comment ")) };
