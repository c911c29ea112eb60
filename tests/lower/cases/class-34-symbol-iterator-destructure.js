class Pair { constructor(a, b) { this.a = a; this.b = b; } *[Symbol.iterator]() { yield this.a; yield this.b; } }
const [x, y] = new Pair('l', 'r');
const arr = Array.prototype.slice.call([...new Pair(1, 2)]);
[x, y, arr]
