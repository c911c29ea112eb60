// One call to each server, all at once; summarise what each answered.
const [repos, tables, dir, wx, page, msgs] = await Promise.all([
  tools.github.list_repos({ org: "globex" }),
  tools.db.list_tables({}),
  tools.fs.list_dir({ path: "/" }),
  tools.weather.current({ city: "Sydney" }),
  tools.search.web({ query: "mcp" }),
  tools.mail.list_messages({ folder: "sent" }),
]);
return {
  github: repos.total,
  db: tables.tables.map((t) => t.name),
  fs: dir.map((d) => d.name),
  weather: wx.conditions,
  search: page.results.length,
  mail: msgs.messages.length,
};
