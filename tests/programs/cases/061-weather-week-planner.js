// Pick the best days for an outdoor event in Lisbon: no rain, warmest first.
const { city, daily } = await tools.weather.forecast({ city: "Lisbon", days: 7 });
const dry = daily.filter((d) => d.precip_mm === 0);
const ranked = [...dry].sort((a, b) => b.high - a.high || a.date.localeCompare(b.date));
const weekday = (iso) => ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][new Date(iso + "T00:00:00Z").getUTCDay()];
console.log(`${dry.length} dry days of ${daily.length} in ${city}`);
return ranked.slice(0, 3).map((d) => `${weekday(d.date)} ${d.date}: ${d.high}/${d.low} ${d.conditions}`);
