const recipients = [["ok@acme.example"], ["someone@blocked.example"], ["not-an-address"]];
const results = [];
for (const to of recipients) {
  try {
    const r = await tools.mail.send({ to, subject: "Hello", body: "Hi there" });
    results.push(`${to[0]}: ${r.status}`);
  } catch (e) {
    results.push(`${to[0]}: ${e instanceof ToolError ? "rejected" : "other"} (${e.message.slice(0, 3)})`);
  }
}
return results;
