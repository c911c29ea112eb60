const a = 1, b = 'two';
const o = { a, b, m() { return this.a; }, get g() { return 'got'; }, ['c' + 'd']: 3, 'quoted key': 4, 5: 'five' };
[o.a, o.b, o.m(), o.g, o.cd, o['quoted key'], o[5]]
