// Promise.any: the first fulfilled wins; rejections are ignored while one succeeds.
const value = await Promise.any([3, 6, 4, 9].map((id) => tools.flaky.unstable({ id })));
console.log(JSON.stringify(value));
return value;
