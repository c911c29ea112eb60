// Promise.all rejects with the first rejection; the program fails with it.
const slowFail = sleep(200).then(() => { throw new Error("late failure"); });
const fastFail = sleep(10).then(() => { throw new Error("early failure"); });
await Promise.all([slowFail, fastFail, sleep(5)]);
return "unreachable";
