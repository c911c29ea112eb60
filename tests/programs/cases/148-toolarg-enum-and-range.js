const attempts = {
  badEnum: () => tools.github.list_issues({ repo: "acme/widgets", state: "opened" }),
  tooSmall: () => tools.github.list_issues({ repo: "acme/widgets", per_page: 0 }),
  tooBig: () => tools.weather.forecast({ city: "Lima", days: 10 }),
  badPattern: () => tools.github.list_issues({ repo: "widgets" }),
  fine: () => tools.weather.forecast({ city: "Lima", days: 1 }),
};
const out = {};
for (const [name, fn] of Object.entries(attempts)) {
  try {
    const r = await fn();
    out[name] = Array.isArray(r) ? `array(${r.length})` : `ok ${Object.keys(r).join(",")}`;
  } catch (e) {
    out[name] = `${e.name}:${e.violations.length}`;
  }
}
return out;
