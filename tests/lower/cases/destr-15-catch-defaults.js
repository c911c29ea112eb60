try { throw {}; } catch ({ message = 'default msg', code = 0 }) { console.log(message, code); }
'ok'
