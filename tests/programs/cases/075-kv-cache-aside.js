// Cache expensive weather lookups in kv.
const ns = "p075";
let hits = 0, misses = 0;
async function cachedWeather(city) {
  const key = `wx:${city.toLowerCase()}`;
  const cached = await tools.kv.get({ ns, key });
  if (cached.found) { hits++; return cached.value; }
  misses++;
  const fresh = await tools.weather.current({ city });
  await tools.kv.set({ ns, key, value: fresh });
  return fresh;
}
const order = ["Berlin", "Tokyo", "berlin", "Lima", "TOKYO", "Berlin"];
const temps = [];
for (const city of order) temps.push((await cachedWeather(city)).temp);
console.log(`hits=${hits} misses=${misses}`);
return { temps, hits, misses };
