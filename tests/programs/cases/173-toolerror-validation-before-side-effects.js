// Validate all arguments up front by catching ToolArgumentError in a dry loop.
const drafts = [
  { to: ["a@acme.example"], subject: "Hello", body: "1" },
  { to: ["b@acme.example"], subject: "", body: "2" },
  { to: ["c@acme.example"], subject: "Hi", body: 3 },
];
const invalid = [];
for (const [i, d] of drafts.entries()) {
  try {
    await tools.mail.send(d);
  } catch (e) {
    if (e instanceof ToolArgumentError) invalid.push(i);
    else throw e;
  }
}
return { invalid, sentOk: drafts.length - invalid.length };
