const data = {
  date: new Date(Date.UTC(2024, 0, 15, 9, 30)),
  nested: { list: [1, "two", null, true], empty: {} },
  skip: undefined,
  fn() {},
  custom: { toJSON() { return "custom!"; } },
  nan: NaN,
  inf: -Infinity,
};
const text = JSON.stringify(data);
const pretty = JSON.stringify({ a: 1, b: [1, 2] }, null, "\t");
const filtered = JSON.stringify(data.nested, (k, v) => (v === null ? undefined : v));
const revived = JSON.parse('{"when":"2024-01-15T09:30:00.000Z","n":"5"}', (k, v) => (k === "when" ? new Date(v).getUTCHours() : k === "n" ? Number(v) : v));
let parseError;
try { JSON.parse("{bad json}"); } catch (e) { parseError = e.name; }
return { text, pretty, filtered, revived, parseError, arr: JSON.stringify([undefined, () => 1, Symbol("s")]) };
