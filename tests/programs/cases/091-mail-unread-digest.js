// Collect all unread inbox messages across pages.
const unread = [];
let cursor;
do {
  const page = await tools.mail.list_messages({ folder: "inbox", unread_only: true, limit: 3, ...(cursor ? { cursor } : {}) });
  unread.push(...page.messages);
  cursor = page.next_cursor;
} while (cursor);
const bySender = unread.reduce((acc, m) => ((acc[m.from] = (acc[m.from] || 0) + 1), acc), {});
console.log(`${unread.length} unread`);
return { subjects: unread.map((m) => m.subject), bySender };
