function* chunks<T>(items: readonly T[], size: number): Generator<T[], void, undefined> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
function* zip<A, B>(a: Iterable<A>, b: Iterable<B>): Generator<[A, B]> {
  const ib = b[Symbol.iterator]();
  for (const x of a) {
    const y = ib.next();
    if (y.done) return;
    yield [x, y.value];
  }
}
const letters = [..."abcdefg"];
return { chunks: [...chunks(letters, 3)].map((c) => c.join("")), zipped: [...zip([1, 2, 3], "xy")] };
