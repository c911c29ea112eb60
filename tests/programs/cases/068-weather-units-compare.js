const city = "Cairo";
const [metric, imperial] = await Promise.all([
  tools.weather.current({ city }),
  tools.weather.current({ city, units: "imperial" }),
]);
const converted = Math.round((metric.temp * 9) / 5 + 32);
console.log(`${metric.temp}C -> ${converted}F (tool says ${imperial.temp}F)`);
return { metric: metric.temp, imperial: imperial.temp, agrees: converted === imperial.temp, sameConditions: metric.conditions === imperial.conditions };
