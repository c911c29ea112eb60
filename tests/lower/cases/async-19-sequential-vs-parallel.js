const log = [];
const task = async (n) => { log.push('start' + n); await null; log.push('end' + n); return n; };
await task(1); await task(2);
await Promise.all([task(3), task(4)]);
log
