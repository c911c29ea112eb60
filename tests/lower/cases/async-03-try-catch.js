async function bad() { await null; throw new Error('nope'); }
let msg;
try { await bad(); } catch (e) { msg = e.message; } finally { msg += '!'; }
msg
