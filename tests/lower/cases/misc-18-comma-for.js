let r = [];
for (let i = 0, j = 10; i < j; i += 3, j -= 3) r.push(i + ':' + j);
r
