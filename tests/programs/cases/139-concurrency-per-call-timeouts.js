const timeout = (ms) => new Promise((_, rej) => setTimeout(() => rej(new Error(`timeout ${ms}ms`)), ms));
const calls = [
  tools.slow.wait({ ms: 20, label: "quick" }),
  tools.slow.wait({ ms: 900, label: "stuck" }),
  tools.slow.compute({ n: 5 }),
];
const settled = await Promise.allSettled(calls.map((p) => Promise.race([p, timeout(200)])));
return settled.map((s) => (s.status === "fulfilled" ? s.value.label ?? s.value.fib : s.reason.message));
