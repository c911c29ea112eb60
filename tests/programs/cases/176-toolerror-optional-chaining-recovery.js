const issue = await tools.github.get_issue({ repo: "acme/widgets", number: 2 }).catch(() => null);
const missing = await tools.github.get_issue({ repo: "acme/widgets", number: 2000 }).catch(() => null);
return {
  title: issue?.title ?? "(none)",
  missingTitle: missing?.title ?? "(none)",
  firstLabel: missing?.labels?.[0] ?? "unlabeled",
  assignee: issue?.assignees?.[0] ?? null,
};
