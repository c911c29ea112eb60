// Creating an issue in an archived repo is refused; report it instead of failing.
const targets = ["acme/cli", "acme/playground"];
const outcomes = [];
for (const repo of targets) {
  try {
    const res = await tools.github.create_issue({ repo, title: "Update dependencies" });
    outcomes.push({ repo, ok: true, number: res.number });
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    console.warn(`skipped ${repo}: ${err.message}`);
    outcomes.push({ repo, ok: false, reason: err.message.split(":")[0] });
  }
}
return outcomes;
