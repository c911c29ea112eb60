const out = [];
const a = Promise.resolve();
const b = Promise.resolve();
a.then(() => out.push("a1")).then(() => out.push("a2")).then(() => out.push("a3"));
b.then(() => out.push("b1")).then(() => out.push("b2"));
await sleep(0);
return out.join(",");
