// Stop the batch once more than 2 calls failed.
let failures = 0;
const done = [];
for (let id = 1; id <= 12; id++) {
  try {
    const r = await tools.flaky.unstable({ id });
    done.push(r.id);
  } catch {
    failures++;
    if (failures > 2) {
      console.error(`too many failures, stopping at id ${id}`);
      break;
    }
  }
}
return { done, failures };
