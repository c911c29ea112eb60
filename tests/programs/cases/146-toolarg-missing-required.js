try {
  await tools.github.get_issue({ repo: "acme/widgets" });
} catch (e) {
  console.log(e.name);
  return {
    name: e.name,
    isArgError: e instanceof ToolArgumentError,
    isError: e instanceof Error,
    notToolError: !(e instanceof ToolError),
    count: e.violations.length,
    mentionsNumber: JSON.stringify(e.violations).includes("number"),
  };
}
