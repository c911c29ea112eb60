type Folder = "inbox" | "sent" | "archive";
interface Summary { id: string; from: string; subject: string; date: string; unread: boolean; labels: string[] }
interface ListResult { messages: Summary[]; next_cursor: string | null }

async function* allMessages(folder: Folder, limit = 7): AsyncGenerator<Summary> {
  let cursor: string | undefined;
  do {
    const args: { folder: Folder; limit: number; cursor?: string } = { folder, limit };
    if (cursor) args.cursor = cursor;
    const page = (await tools.mail.list_messages(args)) as ListResult;
    yield* page.messages;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}
const senders = new Map<string, number>();
let total = 0;
for await (const m of allMessages("inbox")) {
  total++;
  senders.set(m.from, (senders.get(m.from) ?? 0) + 1);
}
const ranked = [...senders].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
return { total, top: ranked.slice(0, 3) };
