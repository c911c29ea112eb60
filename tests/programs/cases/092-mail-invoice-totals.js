const { messages } = await tools.mail.list_messages({ folder: "inbox", limit: 20 });
const invoices = messages.filter((m) => /^Invoice #\d+/.test(m.subject));
const full = await Promise.all(invoices.map((m) => tools.mail.get_message({ id: m.id })));
const rows = full.map((m) => ({
  id: m.id,
  number: Number(m.subject.match(/#(\d+)/)[1]),
  pdf: m.attachments.find((a) => a.name.endsWith(".pdf"))?.size ?? 0,
}));
console.log(`${rows.length} invoices`);
return { rows, totalKb: Math.round(rows.reduce((s, r) => s + r.pdf, 0) / 1024) };
