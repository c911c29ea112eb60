const wanted = ["Tokyo", "Atlantis", "Sydney", "Gotham"];
const settled = await Promise.allSettled(wanted.map((city) => tools.weather.current({ city })));
const ok = [], failed = [];
settled.forEach((s, i) => {
  if (s.status === "fulfilled") ok.push(`${s.value.city} ${s.value.temp}`);
  else failed.push({ city: wanted[i], error: s.reason.name, message: s.reason.message });
});
console.log(`ok=${ok.length} failed=${failed.length}`);
return { ok, failed };
