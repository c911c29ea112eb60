const s = "Hello, World";
return {
  includes: s.includes("World"),
  startsWith: s.startsWith("Hell"),
  endsWith: s.endsWith("d"),
  startsAt: s.startsWith("World", 7),
  repeat: "ab".repeat(3),
  padStart: "7".padStart(3, "0"),
  padEnd: "x".padEnd(4, "-="),
  trimStart: "  lead".trimStart(),
  trimEnd: "trail  ".trimEnd(),
  replaceAll: "a-b-c".replaceAll("-", "+"),
  at: [s.at(0), s.at(-1)],
  codePoint: "€".codePointAt(0),
  fromCodePoint: String.fromCodePoint(72, 105, 33),
  normalize: "abc".normalize() === "abc",
  split: "a,b,,c".split(","),
  matchAll: [..."a1b22c333".matchAll(/\d+/g)].map((m) => `${m[0]}@${m.index}`),
};
