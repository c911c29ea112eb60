// An async generator that pages through mail; the consumer stops early.
async function* messages(folder) {
  let cursor;
  do {
    const page = await tools.mail.list_messages({ folder, limit: 4, ...(cursor ? { cursor } : {}) });
    yield* page.messages;
    cursor = page.next_cursor;
  } while (cursor);
}
const picked = [];
for await (const m of messages("inbox")) {
  if (m.unread) picked.push(m.id);
  if (picked.length === 3) break;
}
return picked;
