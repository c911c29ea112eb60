const log = [];
const it = { [Symbol.iterator]() { let i = 0; return { next: () => ({ value: i++, done: i > 5 }), return: () => { log.push('closed'); return {}; } }; } };
for (const x of it) { if (x === 2) break; log.push(x); }
log
