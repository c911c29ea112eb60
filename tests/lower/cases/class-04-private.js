class Counter {
  #count = 0;
  static #instances = 0;
  constructor() { Counter.#instances++; }
  #bump(n) { this.#count += n; }
  inc() { this.#bump(1); return this.#count; }
  static instances() { return Counter.#instances; }
  has(o) { return #count in o; }
}
const c = new Counter(); c.inc(); new Counter();
[c.inc(), Counter.instances(), c.has(c), c.has({}), Object.keys(c).length, JSON.stringify(c)]
