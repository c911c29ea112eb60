function f() { const r = []; for (const a of arguments) r.push(a); return r; }
f(1, 'two', 3)
