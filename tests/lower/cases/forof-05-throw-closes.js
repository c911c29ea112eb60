const log = [];
function* g() { try { yield 1; yield 2; } finally { log.push('finally'); } }
try { for (const x of g()) { throw new Error('boom'); } } catch (e) { log.push(e.message); }
log
