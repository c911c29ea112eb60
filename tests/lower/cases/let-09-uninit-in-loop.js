const r = [];
for (let i = 0; i < 3; i++) { let x; if (i === 0) x = 'set'; r.push(String(x)); }
r.join()
