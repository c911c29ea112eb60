const cities = ["Berlin", "Mumbai", "Reykjavik", "Lima"];
const forecasts = await Promise.all(cities.map((city) => tools.weather.forecast({ city, days: 7 })));
const totals = forecasts.map(({ city, daily }) => ({
  city,
  rainyDays: daily.filter((d) => d.precip_mm > 0).length,
  totalMm: daily.reduce((s, d) => s + d.precip_mm, 0),
  spread: Math.max(...daily.map((d) => d.high)) - Math.min(...daily.map((d) => d.low)),
}));
totals.sort((a, b) => b.totalMm - a.totalMm || a.city.localeCompare(b.city));
console.log(`wettest: ${totals[0].city}`);
return totals;
