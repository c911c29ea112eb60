// Awaiting inside a for loop runs the calls one after another.
const key = "p112";
for (let i = 0; i < 4; i++) {
  await tools.slow.enter({ key, ms: 20 });
}
return await tools.slow.peak({ key });
