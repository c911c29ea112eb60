async function mayFail(n) {
  await sleep(1);
  if (n % 2) throw new Error(`odd ${n}`);
  return n;
}
const results = [];
for (const n of [2, 3, 4]) {
  try {
    results.push(await mayFail(n));
  } catch (e) {
    results.push(e.message);
  }
}
const asyncArrow = async (x) => x * 2;
const returnsPromise = asyncArrow(21);
const fromAsync = await returnsPromise;
async function throwsSync() { throw new TypeError("immediately"); }
const p = throwsSync();
const caught = await p.then(() => "no", (e) => `${e.name}:${e.message}`);
return { results, isPromise: returnsPromise instanceof Promise, fromAsync, caught };
