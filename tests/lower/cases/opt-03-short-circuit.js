let count = 0;
const inc = () => ++count;
const n = null;
n?.[inc()];
n?.a.b.c(inc());
count
