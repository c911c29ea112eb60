function find(xs) { for (let i = 0; i < xs.length; i++) { const f = () => xs[i]; if (xs[i] > 2) return f(); } return -1; }
find([1, 2, 3, 4])
