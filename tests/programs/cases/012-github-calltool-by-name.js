// The same calls through callTool("server.tool", args).
const repos = await callTool("github.list_repos", { org: "globex" });
const first = repos.repos[0];
const issue = await callTool("github.get_issue", { repo: first.full_name, number: 1 });
const user = await callTool("github.get_user", { login: issue.author });
console.log(first.full_name, issue.number, user.login);
return { repo: first.full_name, title: issue.title, author: user.name };
