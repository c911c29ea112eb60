try { throw { code: 7, msg: 'bad' }; } catch ({ code, msg }) { console.log(code, msg); }
'done'
