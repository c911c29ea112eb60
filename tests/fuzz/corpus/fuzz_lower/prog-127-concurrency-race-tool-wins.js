const TIMEOUT = Symbol("timeout");
const result = await Promise.race([
  tools.weather.current({ city: "Lima" }),
  sleep(2000).then(() => TIMEOUT),
]);
if (result === TIMEOUT) return "timed out";
return `${result.city} ${result.temp}`;
