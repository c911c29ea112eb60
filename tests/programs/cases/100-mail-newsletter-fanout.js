// Send personalised mails to the team plan users found in the database (dry run list).
const { rows } = await tools.db.select({ table: "users", where: { plan: "team", active: true }, columns: ["name", "email"], order_by: "id", limit: 5 });
const sends = await Promise.all(rows.map((u) =>
  tools.mail.send({ to: [u.email], subject: `Hi ${u.name.split(" ")[0]}, your team plan`, body: `Dear ${u.name},\nThanks for being with us.` })
));
console.log(`${sends.length} messages queued`);
return { queued: sends.every((s) => s.status === "queued"), ids: sends.map((s) => s.id) };
