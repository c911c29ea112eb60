const cities = ["Mumbai", "Tokyo", "Lisbon", "Cairo", "Sydney"];
const out = [];
for (const city of cities) {
  const w = await tools.weather.current({ city });
  const level = w.humidity >= 80 ? "high" : w.humidity >= 50 ? "moderate" : "low";
  out.push({ city, humidity: w.humidity, level, windy: w.wind_kph > 30 });
}
const high = out.filter((o) => o.level === "high").map((o) => o.city);
if (high.length) console.warn(`humid: ${high.join(", ")}`);
else console.info("no humid cities");
return out;
