let closed = false;
function* g() { try { yield 1; yield 2; yield 3; } finally { closed = true; } }
const [a] = g();
[a, closed]
