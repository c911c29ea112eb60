// The order in which awaits of different kinds resume, against
// Promise.then callbacks queued around them: a primitive, null and
// undefined, a pending and a settled native promise, a rejected one, a
// thenable object and a plain object; nested async calls in between.
const log = [];
const settled = Promise.resolve("s");
let release;
const pending = new Promise((r) => { release = r; });
const thenable = { then(res) { log.push("then called"); res("t"); } };
async function w(name, v) { log.push(name + " start"); const r = await v; log.push(name + " got " + String(r)); return r; }
async function rej() { try { await Promise.reject(new Error("no")); } catch (e) { log.push("rej caught " + e.message); } }
const all = Promise.all([
  w("num", 1), w("null", null), w("undef", undefined), w("settled", settled), w("pending", pending),
  w("thenable", thenable), w("plain", { a: 1 }), rej(),
]);
settled.then(() => log.push("then settled 1"));
Promise.resolve().then(() => log.push("then 1")).then(() => log.push("then 2")).then(() => log.push("then 3"));
queueMicrotask?.(() => log.push("microtask"));
release("p");
await all;
log.push("all done");
return log;
