// An uncaught ToolError ends the program with the tool's message and the call's line.
const repos = await tools.github.list_repos({ org: "acme" });
console.log(`acme has ${repos.total} repos`);
const issue = await tools.github.get_issue({ repo: "acme/nope", number: 1 });
return issue.title;
