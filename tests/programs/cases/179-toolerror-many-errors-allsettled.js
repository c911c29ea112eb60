const calls = [
  tools.github.get_issue({ repo: "acme/cli", number: 1 }),
  tools.github.get_issue({ repo: "acme/cli", number: 100 }),
  tools.github.get_issue({ repo: "acme/missing", number: 1 }),
  tools.github.get_issue({ repo: "acme/cli", number: -1 }),
];
const settled = await Promise.allSettled(calls);
return settled.map((s) => (s.status === "fulfilled" ? `ok:${s.value.number}` : `${s.reason.name}`));
