// Return partial results plus the errors instead of failing everything.
const cities = ["Berlin", "Nowhere", "Tokyo", "Elsewhere", "Cairo"];
const data = {}, problems = [];
await Promise.all(cities.map(async (city) => {
  try {
    data[city] = (await tools.weather.current({ city })).temp;
  } catch (e) {
    problems.push(`${city}: ${e.message}`);
  }
}));
problems.sort();
return { data: Object.fromEntries(Object.entries(data).sort()), problems };
