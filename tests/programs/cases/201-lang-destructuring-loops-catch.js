const users = [
  { id: 1, profile: { name: "Ada", langs: ["en", "fr"] } },
  { id: 2, profile: { name: "Bo", langs: [] } },
];
const lines = [];
for (const { id, profile: { name, langs: [primary = "?"] } } of users) lines.push(`${id}:${name}:${primary}`);
for (const [key, { length }] of Object.entries({ abc: "xyz", de: "fg" })) lines.push(`${key}/${length}`);
try {
  throw { code: 42, detail: { reason: "nope" } };
} catch ({ code, detail: { reason } }) {
  lines.push(`caught ${code} ${reason}`);
}
const m = new Map([["k1", { v: 1 }], ["k2", { v: 2 }]]);
for (const [k, { v }] of m) lines.push(`${k}->${v}`);
return lines;
