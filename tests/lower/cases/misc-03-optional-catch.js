let r;
try { JSON.parse('{'); } catch { r = 'caught'; }
r
