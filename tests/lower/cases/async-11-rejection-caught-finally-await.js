const log = [];
try { await Promise.reject(new Error('r')); } catch (e) { log.push(e.message); } finally { await null; log.push('fin'); }
log
