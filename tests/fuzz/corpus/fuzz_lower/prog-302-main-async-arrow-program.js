async () => {
  const { daily } = await tools.weather.forecast({ city: "Tokyo", days: 3 });
  console.log("days:", daily.length);
  return daily.map((d) => d.conditions);
}
