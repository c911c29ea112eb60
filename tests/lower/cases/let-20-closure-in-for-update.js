let out = [];
for (let i = 0, n = 3; i < n; i++) { setTimeout(() => out.push(i), 0); }
await new Promise(r => setTimeout(r, 5));
out
