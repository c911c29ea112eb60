class Repo {
  #store = new Map();
  async save(key, value) {
    await sleep(2);
    this.#store.set(key, structuredClone(value));
    return this.#store.size;
  }
  async load(key) {
    await null;
    if (!this.#store.has(key)) throw new Error(`missing ${key}`);
    return this.#store.get(key);
  }
  static async open() {
    const r = new Repo();
    await r.save("meta", { created: "2024-01-01" });
    return r;
  }
}
const repo = await Repo.open();
const original = { list: [1, 2] };
await repo.save("a", original);
original.list.push(3);
const loaded = await repo.load("a");
const missing = await repo.load("zzz").catch((e) => e.message);
const obj = { async m() { return "async method"; }, async *gen() { yield 1; yield 2; } };
const gathered = [];
for await (const x of obj.gen()) gathered.push(x);
return { loaded, missing, m: await obj.m(), gathered };
