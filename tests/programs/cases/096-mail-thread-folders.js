const folders = ["inbox", "sent", "archive"];
const pages = await Promise.all(folders.map((folder) => tools.mail.list_messages({ folder, limit: 20 })));
const stats = folders.map((folder, i) => {
  const { messages, next_cursor } = pages[i];
  const dates = messages.map((m) => m.date).sort();
  return { folder, shown: messages.length, more: next_cursor !== null, oldest: dates[0].slice(0, 10), newest: dates.at(-1).slice(0, 10) };
});
console.log(stats.map((s) => `${s.folder}:${s.shown}`).join(" "));
return stats;
