const ids = [1, 2, 4, 6, 7];
console.log("fetching", ids.length, "items");
const values = await Promise.all(ids.map((id) => tools.flaky.unstable({ id })));
return values;
