const log = [];
async function* g() { try { yield 1; yield 2; } finally { log.push('closed'); } }
for await (const x of g()) { log.push(x); break; }
log
