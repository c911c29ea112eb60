const log = [];
function* g() { try { yield 1; yield 2; } catch (e) { log.push('caught?'); } finally { log.push('cleanup'); } }
const it = g(); it.next();
[it.return(9), it.next(), log]
