const list = await tools.weather.cities({});
const cities = list.split(", ");
const reports = await Promise.all(cities.map((city) => tools.weather.current({ city })));
const warmest = reports.reduce((a, b) => (b.temp > a.temp ? b : a));
const coldest = reports.reduce((a, b) => (b.temp < a.temp ? b : a));
console.log(`${cities.length} cities; warmest ${warmest.city} ${warmest.temp}°C, coldest ${coldest.city} ${coldest.temp}°C`);
return reports.map(({ city, temp, conditions }) => `${city}: ${temp}°C ${conditions}`);
