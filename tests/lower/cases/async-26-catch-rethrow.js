async function f() { try { await Promise.reject(new TypeError('t')); } catch (e) { throw new Error('wrapped ' + e.message); } }
try { await f(); } catch (e) { e.message }
