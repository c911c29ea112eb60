// The dashed tool name is reachable as get_alerts, by its original name and through callTool.
const a = await tools.weather.get_alerts({ region: "asia" });
const b = await tools.weather["get-alerts"]({ region: "asia" });
const c = await callTool("weather.get-alerts", { region: "asia" });
console.log(typeof a, a === b);
return { same: JSON.stringify(a) === JSON.stringify(b) && JSON.stringify(b) === JSON.stringify(c), text: typeof a === "string" ? a : a[0].text };
