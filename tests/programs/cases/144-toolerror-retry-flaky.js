let attempt = 0;
let result;
while (true) {
  attempt++;
  try {
    result = await tools.flaky.fetch({ key: "p144" });
    break;
  } catch (err) {
    console.warn(`attempt ${attempt}: ${err.message}`);
    if (attempt >= 5) throw err;
  }
}
return { attempt, serverAttempts: result.attempts, checksum: result.data.checksum };
