// @loose-message
const raw = '{"name": "x", "tags": [1, 2,]}';
console.log("parsing", raw.length, "chars");
const parsed = JSON.parse(raw);
return parsed;
