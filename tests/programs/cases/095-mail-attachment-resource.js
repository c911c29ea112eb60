// Attachments are embedded resources: the result is the content array.
const msg = await tools.mail.get_message({ id: "inbox-013" });
const att = msg.attachments[0];
const content = await tools.mail.get_attachment({ message_id: msg.id, name: att.name });
const res = content[0].resource;
const rows = res.text.trim().split("\n").slice(1).map((l) => l.split(",").map(Number));
const signups = rows.reduce((s, r) => s + r[1], 0);
console.log(content[0].type, res.mimeType, res.uri);
return { name: att.name, weeks: rows.length, signups, churn: rows.reduce((s, r) => s + r[2], 0) };
