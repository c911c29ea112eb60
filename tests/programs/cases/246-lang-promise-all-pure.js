const delay = (ms, v) => new Promise((r) => setTimeout(() => r(v), ms));
const all = await Promise.all([delay(30, "a"), "plain", delay(10, "b"), Promise.resolve("c")]);
const settled = await Promise.allSettled([delay(5, 1), Promise.reject(new Error("x")), 3]);
const race = await Promise.race([delay(50, "slow"), delay(5, "fast")]);
const any = await Promise.any([Promise.reject(new Error("1")), delay(20, "second"), delay(40, "third")]);
const empty = await Promise.all([]);
return {
  all,
  settled: settled.map((s) => (s.status === "fulfilled" ? s.value : s.reason.message)),
  race, any, empty,
};
