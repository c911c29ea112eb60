// A retry helper that gives up after 3 attempts and rethrows the last error.
async function withRetries(fn, tries) {
  let last;
  for (let i = 1; i <= tries; i++) {
    try {
      return await fn();
    } catch (e) {
      last = e;
      console.log(`try ${i} failed`);
    }
  }
  throw last;
}
try {
  await withRetries(() => tools.flaky.fetch({ key: "p145", fail_times: 5 }), 3);
} catch (e) {
  return { gaveUp: true, name: e.name, message: e.message };
}
