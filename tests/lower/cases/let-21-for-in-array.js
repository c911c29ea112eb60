const r = [];
for (const i in ['a', 'b']) r.push(typeof i + i);
r
