// Weekly triage report: open issues of three repositories, their authors, the
// CI status of recent pull requests and the on-call rota, merged into one summary.
const REPOS = ["acme/api-server", "acme/web-app", "acme/infra"];
const SEVERITY = { critical: 4, high: 3, medium: 2, low: 1 };
const STALE_DAYS = 30;
const now = Date.parse("2026-11-20T12:00:00Z");

class RateLimiter {
  constructor(limit) {
    this.limit = limit;
    this.active = 0;
    this.queue = [];
    this.calls = 0;
  }
  async run(task) {
    while (this.active >= this.limit) {
      await new Promise((resolve) => this.queue.push(resolve));
    }
    this.active++;
    this.calls++;
    try {
      return await task();
    } finally {
      this.active--;
      const next = this.queue.shift();
      if (next) next();
    }
  }
}

class IssueStats {
  #counts = new Map();
  constructor(repo) {
    this.repo = repo;
    this.total = 0;
    this.stale = [];
  }
  add(issue) {
    this.total++;
    for (const label of issue.labels ?? []) {
      this.#counts.set(label, (this.#counts.get(label) ?? 0) + 1);
    }
    const age = Math.floor((now - Date.parse(issue.created_at)) / 86400000);
    if (age > STALE_DAYS && !issue.assignee) this.stale.push({ number: issue.number, age });
  }
  get topLabels() {
    return [...this.#counts.entries()]
      .sort(([, a], [, b]) => b - a)
      .slice(0, 3)
      .map(([label, count]) => `${label} (${count})`);
  }
  toJSON() {
    return { repo: this.repo, total: this.total, stale: this.stale.length, topLabels: this.topLabels };
  }
}

const limiter = new RateLimiter(4);
const severityOf = (issue) => {
  let best = 0;
  for (const label of issue.labels ?? []) {
    const [kind, value] = label.split(":");
    if (kind === "severity") best = Math.max(best, SEVERITY[value] ?? 0);
  }
  return best;
};

async function fetchAllIssues(repo) {
  const all = [];
  let page = 1;
  while (page <= 3) {
    const batch = await limiter.run(() => tools.github.list_issues({ repo, state: "open", page, per_page: 20 }));
    all.push(...batch);
    if (batch.length < 20) break;
    page++;
  }
  return all;
}

const issuesByRepo = {};
const stats = [];
const results = await Promise.all(REPOS.map(async (repo) => {
  try {
    const issues = await fetchAllIssues(repo);
    return { repo, issues };
  } catch (err) {
    console.warn(`skipping ${repo}: ${err.message}`);
    return { repo, issues: [] };
  }
}));
for (const { repo, issues } of results) {
  const s = new IssueStats(repo);
  for (const issue of issues) s.add(issue);
  stats.push(s);
  issuesByRepo[repo] = issues;
}
console.log(`fetched ${results.reduce((n, r) => n + r.issues.length, 0)} issues from ${REPOS.length} repositories`);

// The most severe issues across repositories, with their authors' details.
const ranked = Object.entries(issuesByRepo)
  .flatMap(([repo, issues]) => issues.map((issue) => ({ ...issue, repo, severity: severityOf(issue) })))
  .filter(({ severity }) => severity >= 3)
  .sort((a, b) => b.severity - a.severity || a.number - b.number);
const top = ranked.slice(0, 8);
const authors = [...new Set(top.map((i) => i.user?.login).filter(Boolean))];
const profiles = {};
await Promise.all(authors.map(async (login) => {
  const user = await limiter.run(() => tools.github.get_user({ login }));
  profiles[login] = { name: user.name ?? login, team: user.company?.replace(/^@/, "") ?? "unknown" };
}));

// Recent pull requests and their CI runs.
const prs = await tools.github.list_pulls({ repo: REPOS[0], state: "open" });
const checks = [];
for (let i = 0; i < prs.length; i++) {
  const pr = prs[i];
  if (pr.draft) continue;
  const { runs = [] } = await tools.ci.list_runs({ repo: REPOS[0], ref: pr.head?.sha });
  const failed = runs.filter((r) => r.conclusion === "failure");
  const durations = runs.map(({ started_at, finished_at }) => Date.parse(finished_at) - Date.parse(started_at));
  const slowest = durations.length ? Math.max(...durations) / 1000 : 0;
  checks.push({
    number: pr.number,
    title: pr.title.length > 40 ? `${pr.title.slice(0, 37)}...` : pr.title,
    failed: failed.map((r) => r.name),
    slowest: Math.round(slowest),
  });
}
const red = checks.filter((c) => c.failed.length > 0);

// On-call rota from the key-value store, with a default when it is missing.
let rota;
try {
  rota = await tools.kv.get({ ns: "oncall", key: "rota" });
} catch (e) {
  if (!(e instanceof ToolError)) throw e;
  rota = { value: [] };
}
const { value: people = [] } = rota;
const onCall = people.find((p) => p.from <= now && now < p.to)?.name ?? "nobody";

// Assemble the summary table, one line per repository.
const lines = [];
for (const s of stats) {
  const { repo, total, stale, topLabels } = s.toJSON();
  const critical = (issuesByRepo[repo] ?? []).filter((i) => severityOf(i) === 4).length;
  lines.push(`| ${repo.padEnd(16)} | ${String(total).padStart(4)} | ${String(stale).padStart(3)} | ${critical} | ${topLabels.join(", ") || "-"} |`);
}
const table = ["| repo | open | stale | critical | labels |", "|---|---|---|---|---|", ...lines].join("\n");

const mentions = top.map(({ repo, number, title, severity, user }) => {
  const who = profiles[user?.login];
  const team = who ? ` (${who.team})` : "";
  return `- [${repo}#${number}] ${title} — sev ${severity}, by ${who?.name ?? "?"}${team}`;
});

const groups = top.reduce((acc, issue) => {
  const key = issue.repo.split("/")[1];
  (acc[key] ??= []).push(issue.number);
  return acc;
}, {});

const body = [
  `## Triage ${new Date(now).toISOString().slice(0, 10)}`,
  "",
  table,
  "",
  `### Top issues (${top.length} of ${ranked.length} severe)`,
  ...mentions,
  "",
  `### CI: ${red.length} of ${checks.length} pull requests failing`,
  ...red.map(({ number, title, failed }) => `- #${number} ${title}: ${failed.join(", ")}`),
  "",
  `On call: ${onCall}`,
].join("\n");

let posted = null;
if (top.length > 0 || red.length > 0) {
  const { number, url } = await tools.github.create_issue({
    repo: "acme/triage",
    title: `Weekly triage: ${top.length} severe issues, ${red.length} red PRs`,
    body,
    labels: ["triage", ...(red.length ? ["ci"] : [])],
  });
  posted = { number, url };
  await tools.kv.set({ ns: "triage", key: "last", value: { number, at: now } });
}

return {
  repos: stats.map((s) => s.toJSON()),
  severe: ranked.length,
  groups,
  red: red.map((c) => c.number),
  onCall,
  posted,
  calls: limiter.calls,
  bodyLines: body.split("\n").length,
};
