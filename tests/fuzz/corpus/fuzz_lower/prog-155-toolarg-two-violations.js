try {
  await tools.weather.forecast({ city: 7, days: 0 });
} catch (e) {
  const text = JSON.stringify(e.violations);
  return { name: e.name, count: e.violations.length, city: text.includes("/city"), days: text.includes("/days") };
}
