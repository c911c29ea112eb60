// Strings from tool results keep UTF-16 semantics: a character outside the BMP is
// a surrogate pair, lone surrogates stay lone, U+0000 stays inside the string.
const LITERAL = {
  emoji: "smile 😀 ok",
  cjk: "𠀀𪛖 ext-B",
  lone_high: "high \ud83d alone",
  lone_low: "low \ude00 alone",
  nul: "nul \u0000 inside",
  mixed: "😀\u0000\ud800𠀀\udfff\u{10FFFF} end",
};
const hex = (n) => n.toString(16);
const probe = (s, kind) => ({
  length: s.length,
  units: Array.from({ length: s.length }, (_, i) => hex(s.charCodeAt(i))),
  points: [...s].map((c) => hex(c.codePointAt(0))),
  at1: s.codePointAt(1),
  head: s.slice(0, 7),
  tail: s.slice(-5),
  sameAsLiteral: s === LITERAL[kind],
  indexOfLiteral: ("<" + s + ">").indexOf(LITERAL[kind]),
  upper: s.toUpperCase(),
});
const out = {};
for (const kind of Object.keys(LITERAL)) {
  const plain = await tools.text.sample({ kind });
  const parsed = await tools.text.sample_json({ kind });
  const structured = await tools.text.sample_structured({ kind });
  out[kind] = {
    plain: probe(plain, kind),
    json: probe(parsed.text, kind),
    listed: parsed.list[0] === LITERAL[kind],
    structured: probe(structured.text, kind),
    key: Object.keys(structured.keyed)[0] === LITERAL[kind] && structured.keyed[LITERAL[kind]] === kind,
  };
  console.log(kind, plain.length, plain);
}
return out;
