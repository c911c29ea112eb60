class Counter {
  constructor() {
    this.count = 0;
  }
  incrementAllLater(items) {
    items.forEach(() => { this.count++; });
    return this.count;
  }
  withFunction(items) {
    let ok = 0;
    const self = this;
    items.forEach(function () { if (this === undefined || this !== self) ok++; });
    return ok;
  }
}
const c = new Counter();
const obj = {
  name: "obj",
  regular() { return [1, 2].map((n) => `${this.name}${n}`); },
  nested() { return (() => (() => this.name)())(); },
};
return { arrows: c.incrementAllLater([1, 2, 3]), plainFnThisDiffers: c.withFunction([1, 2]), regular: obj.regular(), nested: obj.nested() };
