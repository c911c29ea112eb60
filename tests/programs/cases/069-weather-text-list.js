// cities() answers plain text that is not JSON, so it arrives as a string.
const raw = await tools.weather.cities({});
const cities = raw.split(",").map((s) => s.trim());
const byInitial = cities.reduce((acc, c) => {
  (acc[c[0]] ??= []).push(c);
  return acc;
}, {});
console.log(`type=${typeof raw} length=${raw.length}`);
return { count: cities.length, byInitial, longest: cities.reduce((a, b) => (b.length > a.length ? b : a)) };
