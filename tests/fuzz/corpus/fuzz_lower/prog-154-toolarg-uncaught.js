// An uncaught ToolArgumentError ends the program.
const city = "Berlin";
const forecast = await tools.weather.forecast({ city, days: "three" });
return forecast;
