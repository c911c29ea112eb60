let caught = null;
try {
  await tools.gitlab.list_repos({ org: "acme" });
} catch (e) {
  caught = e instanceof Error;
}
let viaCallTool = null;
try {
  await callTool("weather.curent", { city: "Lima" });
} catch (e) {
  viaCallTool = e.message.includes("current");
}
return { caught, viaCallTool, serversIncludeWeather: Object.keys(tools).includes("weather") };
