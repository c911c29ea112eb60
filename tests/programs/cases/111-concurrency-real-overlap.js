// Promise.all really overlaps the calls: the host sees 5 in flight at once.
const key = "p111";
await Promise.all([1, 2, 3, 4, 5].map(() => tools.slow.enter({ key, ms: 200 })));
const { peak, calls } = await tools.slow.peak({ key });
console.log(`calls=${calls} peak=${peak}`);
return peak;
