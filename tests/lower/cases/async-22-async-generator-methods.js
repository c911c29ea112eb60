class Feed { constructor(xs) { this.xs = xs; } async *[Symbol.asyncIterator]() { for (const x of this.xs) { await null; yield x.toUpperCase(); } } }
const out = [];
for await (const x of new Feed(['a', 'b'])) out.push(x);
out
