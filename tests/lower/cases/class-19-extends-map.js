class DefaultMap extends Map { get(k) { return this.has(k) ? super.get(k) : 'default'; } }
const m = new DefaultMap([['a', 1]]);
[m.get('a'), m.get('z'), m.size, m instanceof Map]
