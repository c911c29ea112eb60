const { messages } = await tools.mail.list_messages({ folder: "inbox", limit: 20 });
const important = messages.filter((m) => m.labels.includes("important"));
const fromDomains = [...new Set(messages.map((m) => m.from.split("@")[1]))].sort();
const perDay = {};
for (const m of messages) {
  const d = m.date.slice(0, 10);
  perDay[d] = (perDay[d] || 0) + 1;
}
const busiest = Object.entries(perDay).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
return { important: important.map((m) => m.id), fromDomains, busiest };
