// Look for the first forecast with rain, checking cities in order, and stop there.
const cities = ["Cairo", "Nairobi", "Berlin", "Lima", "Tokyo"];
let checked = 0, found = null;
for (const city of cities) {
  const { daily } = await tools.weather.forecast({ city, days: 3 });
  checked++;
  const wet = daily.find((d) => d.precip_mm > 0);
  if (wet) { found = { city, date: wet.date, mm: wet.precip_mm }; break; }
}
console.log(`checked ${checked} of ${cities.length}`);
return found;
