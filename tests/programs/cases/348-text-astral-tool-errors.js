// A ToolError's message and result carry the server's text with UTF-16 semantics.
const kinds = ["emoji", "cjk", "lone_high", "lone_low", "nul", "mixed"];
const out = [];
for (const kind of kinds) {
  try {
    await tools.text.sample_error({ kind });
    out.push({ kind, thrown: false });
  } catch (e) {
    const text = e.result.content[0].text;
    out.push({
      kind,
      name: e.name,
      length: e.message.length,
      same: e.message === text,
      lastUnit: e.message.charCodeAt(e.message.length - 1).toString(16),
      points: [...e.message.slice(8)].map((c) => c.codePointAt(0).toString(16)),
    });
    console.log(String(e));
  }
}
try {
  await tools.text["greet_😀"]({ who: "" });
} catch (e) {
  out.push({ tool: e.tool, toolLength: e.tool.length, message: e.message, end: e.message.slice(-2) === "😀" });
}
return out;
