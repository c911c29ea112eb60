// Median time to close, in days, for closed issues of acme/sdk-go.
const repo = "acme/sdk-go";
const closed = await tools.github.list_issues({ repo, state: "closed", per_page: 100 });
const full = await Promise.all(closed.map((i) => tools.github.get_issue({ repo, number: i.number })));
const days = full
  .map((i) => (Date.parse(i.closed_at) - Date.parse(i.created_at)) / 86400000)
  .sort((a, b) => a - b);
const mid = Math.floor(days.length / 2);
const median = days.length % 2 ? days[mid] : (days[mid - 1] + days[mid]) / 2;
console.log(`closed issues: ${days.length}`);
return {
  count: days.length,
  medianDays: Math.round(median * 10) / 10,
  longest: Math.round(days.at(-1) * 10) / 10,
};
