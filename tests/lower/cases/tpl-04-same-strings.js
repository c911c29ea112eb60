const seen = [];
function t(s) { seen.push(s); return s; }
for (let i = 0; i < 2; i++) t`x${i}y`;
[seen[0] === seen[1], Object.isFrozen(seen[0])]
