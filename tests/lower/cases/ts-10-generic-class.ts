class Box<T extends object = {}> implements Iterable<T> {
  private items: T[] = [];
  add(item: T): this { this.items.push(item); return this; }
  *[Symbol.iterator](): Iterator<T> { yield* this.items; }
}
const b = new Box<{ n: number }>().add({ n: 1 }).add({ n: 2 });
[...b].map(x => x.n)
