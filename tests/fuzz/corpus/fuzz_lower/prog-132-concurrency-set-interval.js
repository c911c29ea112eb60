let ticks = 0;
await new Promise((resolve) => {
  const id = setInterval(() => {
    ticks++;
    if (ticks === 3) {
      clearInterval(id);
      resolve();
    }
  }, 25);
});
await sleep(80);
return ticks;
