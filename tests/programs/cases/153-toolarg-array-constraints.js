const cases = {
  emptyTo: { to: [], subject: "x", body: "y" },
  dupLabels: null,
  longTitle: null,
};
const results = {};
try {
  await tools.mail.send(cases.emptyTo);
} catch (e) {
  results.emptyTo = `${e.name}/${e.violations.length}`;
}
try {
  await tools.github.create_issue({ repo: "acme/cli", title: "x", labels: ["bug", "bug"] });
} catch (e) {
  results.dupLabels = `${e.name}/${e.violations.length}`;
}
try {
  await tools.github.create_issue({ repo: "acme/cli", title: "t".repeat(121) });
} catch (e) {
  results.longTitle = `${e.name}/${e.violations.length}`;
}
const ok = await tools.github.create_issue({ repo: "acme/cli", title: "t".repeat(120) });
results.maxTitleOk = ok.title.length;
return results;
