// A typo in a tool name is answered with the nearest names.
try {
  await tools.github.list_issue({ repo: "acme/widgets" });
  return "called?";
} catch (e) {
  console.log("caught:", e instanceof Error);
  return { isError: e instanceof Error, suggests: e.message.includes("list_issues") };
}
