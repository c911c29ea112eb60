async function step(n) {
  await sleep(2);
  if (n === 3) {
    throw new Error(`step ${n} failed`);
  }
  return n;
}
const done = [];
for (let i = 1; i <= 5; i++) {
  done.push(await step(i));
  console.log("done", i);
}
return done;
