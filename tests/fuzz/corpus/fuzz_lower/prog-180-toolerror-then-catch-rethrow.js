// A .catch that rethrows a different error; the program fails with it.
const value = await tools.flaky.unstable({ id: 9 }).catch((e) => {
  console.warn("upstream said:", e.message);
  throw new Error(`could not load item 9 (${e.name})`);
});
return value;
