// representative.js written by hand in ES5 (the baseline of the benchmark):
// what a person would write for Duktape with the runtime's await primitives
// (__await, __spawn) and the prelude's library, line for line where it can.
var REPOS = ["acme/api-server", "acme/web-app", "acme/infra"];
var SEVERITY = { critical: 4, high: 3, medium: 2, low: 1 };
var STALE_DAYS = 30;
var now = Date.parse("2026-11-20T12:00:00Z");

function RateLimiter(limit) {
  this.limit = limit;
  this.active = 0;
  this.queue = [];
  this.calls = 0;
}
RateLimiter.prototype.run = function (task) {
  var self = this;
  return __spawn(function () {
    while (self.active >= self.limit) {
      __await(new Promise(function (resolve) { self.queue.push(resolve); }));
    }
    self.active++;
    self.calls++;
    try {
      return __await(task());
    } finally {
      self.active--;
      var next = self.queue.shift();
      if (next) next();
    }
  });
};

function IssueStats(repo) {
  this.counts = new Map();
  this.repo = repo;
  this.total = 0;
  this.stale = [];
}
IssueStats.prototype.add = function (issue) {
  this.total++;
  var labels = issue.labels || [];
  for (var i = 0; i < labels.length; i++) {
    var label = labels[i];
    this.counts.set(label, (this.counts.get(label) || 0) + 1);
  }
  var age = Math.floor((now - Date.parse(issue.created_at)) / 86400000);
  if (age > STALE_DAYS && !issue.assignee) this.stale.push({ number: issue.number, age: age });
};
Object.defineProperty(IssueStats.prototype, "topLabels", { get: function () {
  return Array.from(this.counts.entries())
    .sort(function (x, y) { return y[1] - x[1]; })
    .slice(0, 3)
    .map(function (e) { return e[0] + " (" + e[1] + ")"; });
} });
IssueStats.prototype.toJSON = function () {
  return { repo: this.repo, total: this.total, stale: this.stale.length, topLabels: this.topLabels };
};

var limiter = new RateLimiter(4);
function severityOf(issue) {
  var best = 0, labels = issue.labels || [];
  for (var i = 0; i < labels.length; i++) {
    var parts = labels[i].split(":"), kind = parts[0], value = parts[1];
    if (kind === "severity") best = Math.max(best, SEVERITY[value] || 0);
  }
  return best;
}

function fetchAllIssues(repo) {
  return __spawn(function () {
    var all = [];
    var page = 1;
    while (page <= 3) {
      var batch = __await(limiter.run(function () { return tools.github.list_issues({ repo: repo, state: "open", page: page, per_page: 20 }); }));
      all.push.apply(all, batch);
      if (batch.length < 20) break;
      page++;
    }
    return all;
  });
}

var issuesByRepo = {};
var stats = [];
var results = __await(Promise.all(REPOS.map(function (repo) {
  return __spawn(function () {
    try {
      var issues = __await(fetchAllIssues(repo));
      return { repo: repo, issues: issues };
    } catch (err) {
      console.warn("skipping " + repo + ": " + err.message);
      return { repo: repo, issues: [] };
    }
  });
})));
for (var r = 0; r < results.length; r++) {
  var s = new IssueStats(results[r].repo), issues = results[r].issues;
  for (var i = 0; i < issues.length; i++) s.add(issues[i]);
  stats.push(s);
  issuesByRepo[results[r].repo] = issues;
}
console.log("fetched " + results.reduce(function (n, r) { return n + r.issues.length; }, 0) + " issues from " + REPOS.length + " repositories");

// The most severe issues across repositories, with their authors' details.
var ranked = Object.entries(issuesByRepo)
  .flatMap(function (e) { return e[1].map(function (issue) { return Object.assign({}, issue, { repo: e[0], severity: severityOf(issue) }); }); })
  .filter(function (i) { return i.severity >= 3; })
  .sort(function (a, b) { return b.severity - a.severity || a.number - b.number; });
var top = ranked.slice(0, 8);
var authors = Array.from(new Set(top.map(function (i) { return i.user && i.user.login; }).filter(Boolean)));
var profiles = {};
__await(Promise.all(authors.map(function (login) {
  return __spawn(function () {
    var user = __await(limiter.run(function () { return tools.github.get_user({ login: login }); }));
    profiles[login] = { name: user.name != null ? user.name : login, team: user.company ? user.company.replace(/^@/, "") : "unknown" };
  });
})));

// Recent pull requests and their CI runs.
var prs = __await(tools.github.list_pulls({ repo: REPOS[0], state: "open" }));
var checks = [];
for (var i = 0; i < prs.length; i++) {
  var pr = prs[i];
  if (pr.draft) continue;
  var runs = __await(tools.ci.list_runs({ repo: REPOS[0], ref: pr.head && pr.head.sha })).runs || [];
  var failed = runs.filter(function (r) { return r.conclusion === "failure"; });
  var durations = runs.map(function (r) { return Date.parse(r.finished_at) - Date.parse(r.started_at); });
  var slowest = durations.length ? Math.max.apply(Math, durations) / 1000 : 0;
  checks.push({
    number: pr.number,
    title: pr.title.length > 40 ? pr.title.slice(0, 37) + "..." : pr.title,
    failed: failed.map(function (r) { return r.name; }),
    slowest: Math.round(slowest)
  });
}
var red = checks.filter(function (c) { return c.failed.length > 0; });

// On-call rota from the key-value store, with a default when it is missing.
var rota;
try {
  rota = __await(tools.kv.get({ ns: "oncall", key: "rota" }));
} catch (e) {
  if (!(e instanceof ToolError)) throw e;
  rota = { value: [] };
}
var people = rota.value || [];
var current = people.find(function (p) { return p.from <= now && now < p.to; });
var onCall = current && current.name != null ? current.name : "nobody";

// Assemble the summary table, one line per repository.
var lines = [];
for (var j = 0; j < stats.length; j++) {
  var st = stats[j].toJSON();
  var critical = (issuesByRepo[st.repo] || []).filter(function (i) { return severityOf(i) === 4; }).length;
  lines.push("| " + st.repo.padEnd(16) + " | " + String(st.total).padStart(4) + " | " + String(st.stale).padStart(3) + " | " + critical + " | " + (st.topLabels.join(", ") || "-") + " |");
}
var table = ["| repo | open | stale | critical | labels |", "|---|---|---|---|---|"].concat(lines).join("\n");

var mentions = top.map(function (i) {
  var who = profiles[i.user && i.user.login];
  var team = who ? " (" + who.team + ")" : "";
  return "- [" + i.repo + "#" + i.number + "] " + i.title + " — sev " + i.severity + ", by " + (who && who.name != null ? who.name : "?") + team;
});

var groups = top.reduce(function (acc, issue) {
  var key = issue.repo.split("/")[1];
  (acc[key] || (acc[key] = [])).push(issue.number);
  return acc;
}, {});

var body = [
  "## Triage " + new Date(now).toISOString().slice(0, 10),
  "",
  table,
  "",
  "### Top issues (" + top.length + " of " + ranked.length + " severe)"
].concat(mentions, [
  "",
  "### CI: " + red.length + " of " + checks.length + " pull requests failing"
], red.map(function (c) { return "- #" + c.number + " " + c.title + ": " + c.failed.join(", "); }), [
  "",
  "On call: " + onCall
]).join("\n");

var posted = null;
if (top.length > 0 || red.length > 0) {
  var created = __await(tools.github.create_issue({
    repo: "acme/triage",
    title: "Weekly triage: " + top.length + " severe issues, " + red.length + " red PRs",
    body: body,
    labels: ["triage"].concat(red.length ? ["ci"] : [])
  }));
  posted = { number: created.number, url: created.url };
  __await(tools.kv.set({ ns: "triage", key: "last", value: { number: created.number, at: now } }));
}

return {
  repos: stats.map(function (s) { return s.toJSON(); }),
  severe: ranked.length,
  groups: groups,
  red: red.map(function (c) { return c.number; }),
  onCall: onCall,
  posted: posted,
  calls: limiter.calls,
  bodyLines: body.split("\n").length
};
