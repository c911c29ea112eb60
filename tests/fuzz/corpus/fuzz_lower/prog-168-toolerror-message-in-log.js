// console.error of a ToolError prints "ToolError: message".
try {
  await tools.weather.current({ city: "Springfield" });
} catch (e) {
  console.error(e);
  console.error("failed:", e);
  console.log(`${e}`);
}
return "logged";
