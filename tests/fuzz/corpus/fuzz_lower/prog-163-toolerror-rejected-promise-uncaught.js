// A rejected promise that is awaited without a catch fails the program.
const ok = await tools.flaky.unstable({ id: 1 });
console.log("first value", ok.value);
await tools.flaky.unstable({ id: 3 });
return "unreachable";
