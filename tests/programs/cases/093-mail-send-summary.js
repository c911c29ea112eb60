const { messages } = await tools.mail.list_messages({ folder: "inbox", limit: 10 });
const failedBuilds = messages.filter((m) => m.subject.includes("Build failed"));
const body = failedBuilds.length
  ? `CI reported ${failedBuilds.length} failed build(s):\n` + failedBuilds.map((m) => `- ${m.date}`).join("\n")
  : "No failed builds this week.";
const sent = await tools.mail.send({ to: ["team@acme.example"], cc: ["lead@acme.example"], subject: "CI summary", body });
console.log(`queued ${sent.id} to ${sent.recipients} recipients`);
return { status: sent.status, recipients: sent.recipients, failedBuilds: failedBuilds.length };
