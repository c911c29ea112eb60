const log = [];
function* g() { try { yield 1; yield 2; } finally { log.push('fin'); } }
function first() { for (const x of g()) return x; }
[first(), log]
