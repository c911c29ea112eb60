// Messages re-dated from RFC 2822 "Date:" lines, then listed newest first.
interface Row { id: string; subject: string; when: number }
const { messages } = await tools.mail.list_messages({ folder: "inbox", limit: 10 });
const rows: Row[] = messages.map((m: any) => {
  const header = new Date(m.date).toUTCString(); // "Mon, 01 Apr 2024 00:00:07 GMT"
  const back = Date.parse(header);
  return { id: m.id, subject: m.subject, when: back };
});
const same = messages.every((m: any) => Math.floor(Date.parse(m.date) / 1000) * 1000 === rows.find((r) => r.id === m.id)!.when);
rows.sort((a, b) => b.when - a.when || a.subject.localeCompare(b.subject));
const parsedForms = [
  "Mon, 01 Apr 2024 09:30:00 GMT",
  "April 1, 2024 9:30 AM",
  "4/1/2024, 9:30:00 AM",
  "Mon Apr 01 2024 09:30:00 GMT+0000 (Coordinated Universal Time)",
].map((s) => new Date(s).toISOString());
return {
  same,
  newest: rows.slice(0, 3).map((r) => `${new Date(r.when).toLocaleDateString("en-US", { month: "short", day: "numeric" })} ${r.subject}`),
  parsedForms,
};
