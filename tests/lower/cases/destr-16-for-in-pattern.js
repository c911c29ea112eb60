const r = [];
for (const [first] in { ab: 1, cd: 2 }) r.push(first);
r
