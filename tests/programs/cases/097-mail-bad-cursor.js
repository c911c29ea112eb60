let page1 = await tools.mail.list_messages({ folder: "inbox", limit: 5 });
const results = [page1.messages.length];
try {
  await tools.mail.list_messages({ folder: "inbox", cursor: "page-2" });
} catch (e) {
  results.push(e.message);
}
const page2 = await tools.mail.list_messages({ folder: "inbox", limit: 5, cursor: page1.next_cursor });
results.push(page2.messages[0].id, page1.next_cursor);
return results;
