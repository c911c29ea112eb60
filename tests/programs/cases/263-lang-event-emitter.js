class Emitter {
  #handlers = new Map();
  on(event, fn) {
    if (!this.#handlers.has(event)) this.#handlers.set(event, []);
    this.#handlers.get(event).push(fn);
    return () => this.off(event, fn);
  }
  off(event, fn) {
    const list = this.#handlers.get(event) ?? [];
    this.#handlers.set(event, list.filter((f) => f !== fn));
  }
  once(event, fn) {
    const off = this.on(event, (...args) => { off(); fn(...args); });
  }
  emit(event, ...args) {
    for (const fn of [...(this.#handlers.get(event) ?? [])]) fn(...args);
    return (this.#handlers.get(event) ?? []).length;
  }
}
const e = new Emitter();
const log = [];
const unsub = e.on("data", (x) => log.push(`a:${x}`));
e.on("data", (x) => log.push(`b:${x}`));
e.once("data", (x) => log.push(`once:${x}`));
const n1 = e.emit("data", 1);
unsub();
const n2 = e.emit("data", 2);
const n3 = e.emit("nothing");
return { log, listeners: [n1, n2, n3] };
