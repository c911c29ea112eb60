// Invalid arguments never reach the server: the host's call counter stays at zero.
const key = "p150";
const bad = [{ key, ms: -1 }, { key, ms: "10" }, { key }, { ms: 10 }];
const names = [];
for (const args of bad) {
  try {
    await tools.slow.enter(args);
    names.push("sent");
  } catch (e) {
    names.push(e.name);
  }
}
const after = await tools.slow.peak({ key });
return { names, calls: after.calls };
