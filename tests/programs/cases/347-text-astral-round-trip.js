// Strings go back out unchanged: a tool result passed as an argument reaches the
// server with the same UTF-16 code units, and its answer comes back equal.
const kinds = ["emoji", "cjk", "lone_high", "lone_low", "nul", "mixed"];
const units = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
const rows = [];
for (const kind of kinds) {
  const s = await tools.text.sample({ kind });
  const back = await tools.text.echo({ value: s });
  rows.push({
    kind,
    serverLength: back.length,
    serverUnits: back.units,
    sameUnits: JSON.stringify(back.units) === JSON.stringify(units(s)),
    equal: back.value === s,
    cut: (await tools.text.echo({ value: s.slice(0, 7) })).units,
  });
}
const literal = await tools.text.echo({ value: "a😀b\ud800c\u0000𠀀" });
const joined = await tools.text.echo({ value: kinds.map((k) => k).join("😀") });
return { rows, literal, joinedLength: joined.length, joinedParts: joined.value.split("😀").length };
