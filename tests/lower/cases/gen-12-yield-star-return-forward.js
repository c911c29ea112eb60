const log = [];
function* inner() { try { yield 1; yield 2; } finally { log.push('inner fin'); } }
function* outer() { try { yield* inner(); } finally { log.push('outer fin'); } }
const it = outer(); it.next();
[it.return(5), log]
