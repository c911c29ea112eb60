// Find security advisories, read them, and forward a summary to the security team.
const advisories = [];
let cursor = null;
do {
  const page = await tools.mail.list_messages({ folder: "inbox", limit: 10, ...(cursor && { cursor }) });
  advisories.push(...page.messages.filter((m) => m.subject.startsWith("Security advisory")));
  cursor = page.next_cursor;
} while (cursor);
const bodies = await Promise.all(advisories.map(({ id }) => tools.mail.get_message({ id })));
const ids = bodies.map((b) => b.subject.match(/\d+$/)[0]);
const sent = await tools.mail.send({
  to: ["security@acme.example"],
  subject: `Advisories pending: ${ids.join(", ")}`,
  body: bodies.map((b) => `${b.subject} from ${b.from} on ${b.date.slice(0, 10)}`).join("\n"),
});
console.log(sent.status, ids.length);
return ids;
