const stream = {
  from: 1,
  to: 4,
  [Symbol.asyncIterator]() {
    let cur = this.from;
    const to = this.to;
    return {
      async next() {
        await sleep(2);
        return cur <= to ? { value: cur++, done: false } : { value: undefined, done: true };
      },
    };
  },
};
const got = [];
for await (const x of stream) got.push(x);
async function* squares(src) {
  for await (const x of src) yield x * x;
}
const sq = [];
for await (const y of squares(stream)) sq.push(y);
return { got, sq };
