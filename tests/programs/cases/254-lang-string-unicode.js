const s = "naïve café – 日本";
return {
  length: s.length,
  upper: s.toUpperCase(),
  codePoints: [..."日本"].map((c) => c.codePointAt(0).toString(16)),
  emojiLength: "😀".length,
  emojiSpread: [..."a😀b"].length,
  fromCode: String.fromCharCode(0x263a),
  escape: "\u00e9\u{1F600}".length,
  jsonEscapes: JSON.stringify("tab\tquote\"nl\n"),
  compare: ["é" > "e", "a" < "b", "Z" < "a"],
  sliceSurrogate: "😀x".slice(2),
};
