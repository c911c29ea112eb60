// A packing list for a 3-day trip to two cities.
const trip = ["Toronto", "Nairobi"];
const items = new Set(["passport", "charger"]);
for (const city of trip) {
  const { daily } = await tools.weather.forecast({ city, days: 3 });
  if (daily.some((d) => d.precip_mm > 0)) items.add("umbrella");
  if (daily.some((d) => d.low < 8)) items.add("warm jacket");
  if (daily.some((d) => d.high >= 25)) items.add("sunscreen");
  if (daily.some((d) => d.conditions === "windy")) items.add("windbreaker");
  console.log(city, daily.map((d) => d.conditions).join("/"));
}
return [...items].sort();
