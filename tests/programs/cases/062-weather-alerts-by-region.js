// get-alerts answers one text item per alert: several items give the content array,
// none give an empty array.
const regions = ["europe", "asia", "africa", "americas", "oceania"];
const alerts = await Promise.all(regions.map((region) => tools.weather["get-alerts"]({ region })));
const summary = {};
regions.forEach((r, i) => {
  const a = alerts[i];
  summary[r] = Array.isArray(a) ? a.map((item) => item.text ?? item) : [a];
});
for (const r of regions) console.log(`${r}: ${summary[r].length}`);
return summary;
