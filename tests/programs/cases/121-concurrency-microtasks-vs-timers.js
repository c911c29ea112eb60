const log = [];
setTimeout(() => log.push("timeout 0"), 0);
Promise.resolve().then(() => log.push("then 1")).then(() => log.push("then 2"));
queueMicrotask(() => log.push("microtask"));
log.push("sync");
await sleep(20);
log.push("after sleep");
console.log(log.join(" | "));
return log;
