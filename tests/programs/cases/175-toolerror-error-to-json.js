// Serialise errors for a report: name/message/tool survive, stack does not.
const report = [];
for (const city of ["Atlantis", "Lisbon"]) {
  try {
    const w = await tools.weather.current({ city });
    report.push({ city, ok: true, temp: w.temp });
  } catch (e) {
    report.push({ city, ok: false, error: { name: e.name, message: e.message, tool: e.tool } });
  }
}
console.log(JSON.stringify(report));
return report;
