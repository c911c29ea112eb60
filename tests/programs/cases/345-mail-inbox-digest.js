// An inbox digest as a person would read it: "2 days ago", "1st", "Ann, Bob, and Cy".
const asOf = Date.UTC(2024, 3, 12, 9, 0); // the digest's date, fixed so the wording is stable
const { messages } = await tools.mail.list_messages({ folder: "inbox", limit: 10 });
const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const ordinal = new Intl.PluralRules("en-US", { type: "ordinal" });
const suffix = { one: "st", two: "nd", few: "rd", other: "th" };
const plural = new Intl.PluralRules("en-US");
const ago = (iso) => {
  const hours = Math.round((Date.parse(iso) - asOf) / 3600000);
  return Math.abs(hours) < 24 ? rtf.format(hours, "hour") : rtf.format(Math.round(hours / 24), "day");
};
const lines = messages.map((m, i) => `${i + 1}${suffix[ordinal.select(i + 1)]}: ${m.subject} (${ago(m.date)})`);
const senders = [...new Set(messages.map((m) => m.from.split("@")[0]))].sort((a, b) => a.localeCompare(b));
const unread = messages.filter((m) => m.unread).length;
return {
  headline: `${unread} unread ${plural.select(unread) === "one" ? "message" : "messages"} from ${new Intl.ListFormat("en", { type: "conjunction" }).format(senders.slice(0, 3))}${senders.length > 3 ? ` and ${senders.length - 3} more` : ""}`,
  lines,
};
