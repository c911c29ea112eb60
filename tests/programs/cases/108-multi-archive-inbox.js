// Decide which inbox messages to archive: read, older than the newest 10, not important.
const all = [];
let cursor;
for (let i = 0; i < 5; i++) {
  const page = await tools.mail.list_messages({ folder: "inbox", limit: 10, ...(cursor ? { cursor } : {}) });
  all.push(...page.messages);
  if (!(cursor = page.next_cursor)) break;
}
const toArchive = all.slice(10).filter((m) => !m.unread && !m.labels.includes("important"));
const ns = "p108";
await tools.kv.set({ ns, key: "archive-plan", value: toArchive.map((m) => m.id) });
const saved = await tools.kv.get({ ns, key: "archive-plan" });
console.log(`${all.length} messages, archiving ${toArchive.length}`);
return saved.value;
