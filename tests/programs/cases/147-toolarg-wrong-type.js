const results = [];
for (const args of [{ repo: "acme/widgets", number: "3" }, { repo: "acme/widgets", number: 2.5 }, { repo: "acme/widgets", number: 3 }]) {
  try {
    const issue = await tools.github.get_issue(args);
    results.push(`ok #${issue.number}`);
  } catch (e) {
    results.push(`${e.name} ${e.violations.length} ${JSON.stringify(e.violations).includes("/number")}`);
  }
}
return results;
