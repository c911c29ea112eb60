function* count(n) { for (let i = 0; i < n; i++) yield i; return 'done'; }
const it = count(2);
[it.next(), it.next(), it.next(), it.next()]
