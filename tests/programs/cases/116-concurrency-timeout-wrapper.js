function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
const outcomes = [];
for (const [ms, limit] of [[20, 500], [900, 100]]) {
  try {
    const r = await withTimeout(tools.slow.wait({ ms, label: `wait${ms}` }), limit, `wait${ms}`);
    outcomes.push(`ok ${r.label}`);
  } catch (e) {
    outcomes.push(`fail ${e.message}`);
  }
}
outcomes.forEach((o) => console.log(o));
return outcomes;
