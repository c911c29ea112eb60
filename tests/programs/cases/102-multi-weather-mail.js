// Email a forecast digest for the cities our users live in (by country).
const countryCity = { DE: "Berlin", JP: "Tokyo", CA: "Toronto", IN: "Mumbai" };
const { rows } = await tools.db.select({ table: "users", filters: [{ column: "country", op: "in", value: Object.keys(countryCity) }], columns: ["country"], limit: 100 });
const counts = rows.reduce((m, { country }) => m.set(country, (m.get(country) ?? 0) + 1), new Map());
const lines = [];
for (const [country, n] of [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
  const { daily } = await tools.weather.forecast({ city: countryCity[country], days: 2 });
  lines.push(`${countryCity[country]} (${n} users): ${daily.map((d) => `${d.high}°/${d.conditions}`).join(", ")}`);
}
const res = await tools.mail.send({ to: ["ops@acme.example"], subject: "Forecast for our users", body: lines.join("\n") });
lines.forEach((l) => console.log(l));
return res.status;
