// ToolError carries the tool name and the raw result.
try {
  await tools.github.get_issue({ repo: "acme/cli", number: 999 });
  return "found?";
} catch (e) {
  return {
    name: e.name,
    isToolError: e instanceof ToolError,
    isError: e instanceof Error,
    message: e.message,
    tool: e.tool,
    resultIsError: e.result.isError,
    resultText: e.result.content[0].text === e.message,
    asString: String(e),
  };
}
