class LRU {
  #max; #map = new Map();
  constructor(max) { this.#max = max; }
  get(k) {
    if (!this.#map.has(k)) return undefined;
    const v = this.#map.get(k);
    this.#map.delete(k);
    this.#map.set(k, v);
    return v;
  }
  set(k, v) {
    this.#map.delete(k);
    this.#map.set(k, v);
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value);
    return this;
  }
  keys() { return [...this.#map.keys()]; }
}
const c = new LRU(3);
c.set("a", 1).set("b", 2).set("c", 3);
c.get("a");
c.set("d", 4);
const afterD = c.keys();
c.set("b", 20);
c.set("e", 5);
return { afterD, final: c.keys(), missingB: c.get("b"), a: c.get("a") ?? null };
