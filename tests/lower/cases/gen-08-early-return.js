function* g() { yield 1; }
const it = g();
[it.return(5), it.next()]
