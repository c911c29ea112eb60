const log = [];
const val = (n) => { log.push(n); return n; };
const { a = val('a'), b = val('b'), c = val('c') } = { b: 0 };
log.join(',') + ' ' + [a, b, c]
