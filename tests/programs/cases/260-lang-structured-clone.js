const original = { name: "cfg", nested: { list: [1, { deep: true }] }, n: null };
const copy = structuredClone(original);
copy.nested.list[1].deep = false;
copy.nested.list.push(2);
const viaJson = JSON.parse(JSON.stringify(original));
const shallow = { ...original };
shallow.nested.list.push("shared");
return { original, copy, equalJson: JSON.stringify(viaJson) === JSON.stringify({ name: "cfg", nested: { list: [1, { deep: true }] }, n: null }) };
