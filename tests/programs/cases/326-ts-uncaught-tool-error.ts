interface Forecast { city: string; daily: { date: string; high: number }[] }
const cities: string[] = ["Lisbon", "Springfield"];
const highs: number[] = [];
for (const city of cities) {
  const f = (await tools.weather.forecast({ city, days: 2 })) as Forecast;
  highs.push(Math.max(...f.daily.map((d) => d.high)));
  console.log(`${city}: ${highs.at(-1)}`);
}
return highs;
