type City = "Berlin" | "Tokyo" | "Lima";
interface Current { city: string; temp: number; conditions: string; humidity: number }
const thresholds = {
  hot: 25,
  cold: 10,
} satisfies Record<string, number>;
const cities: City[] = ["Berlin", "Tokyo", "Lima"];
const readings = await Promise.all(cities.map((city) => tools.weather.current({ city }) as Promise<Current>));
const classify = (t: number): "hot" | "cold" | "mild" => (t >= thresholds.hot ? "hot" : t <= thresholds.cold ? "cold" : "mild");
const result: Record<City, string> = {} as Record<City, string>;
readings.forEach((r, i) => { result[cities[i]] = `${classify(r.temp)} (${r.temp}°C, ${r.conditions})`; });
return result;
