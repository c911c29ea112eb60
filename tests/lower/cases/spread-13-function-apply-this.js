const calc = { base: 2, mul(...xs) { return xs.map(x => x * this.base); } };
const args = [1, 2, 3];
calc.mul(...args, ...[4])
