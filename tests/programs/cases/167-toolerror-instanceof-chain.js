const errors = [];
for (const fn of [
  () => tools.mail.get_message({ id: "nope" }),
  () => tools.mail.get_message({}),
  () => tools.mail.get_message({ id: "inbox-001" }).then((m) => m.attachments[0].name.toUpperCase()),
]) {
  try {
    await fn();
  } catch (e) {
    errors.push([e.name, e instanceof ToolError, e instanceof ToolArgumentError, e instanceof Error, e instanceof TypeError]);
  }
}
return errors;
