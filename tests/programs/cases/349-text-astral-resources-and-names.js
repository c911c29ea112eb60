// Embedded resources' text, and a tool whose name is outside the BMP, reached by
// its original name (tools.server["name"] and callTool).
const kinds = ["emoji", "cjk", "lone_high", "lone_low", "nul", "mixed"];
const resources = {};
for (const kind of kinds) {
  const content = await tools.text.sample_resource({ kind });
  const r = content[1].resource;
  resources[kind] = { type: content[1].type, uri: r.uri, length: r.text.length, firstPoint: r.text.codePointAt(0).toString(16), text: r.text };
}
const greet = tools.text["greet_😀"];
const a = await greet({ who: "𠀀" });
const b = await callTool("text.greet_😀", { who: "😀" });
return {
  resources,
  hasTool: typeof greet,
  a, aLength: a.length, aWave: a.codePointAt(a.length - 2).toString(16),
  b, bEqual: b === "hello 😀 👋",
};
