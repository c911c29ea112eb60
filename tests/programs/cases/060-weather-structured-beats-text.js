// current() has an outputSchema: the result is structuredContent, not the summary text.
const r = await tools.weather.current({ city: "berlin", units: "imperial" });
console.log(typeof r, Object.keys(r).join(","));
return { city: r.city, unitsEcho: r.units, fahrenheit: r.temp, celsiusApprox: Math.round(((r.temp - 32) * 5) / 9) };
