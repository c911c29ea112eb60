function* worker() {
  const log = [];
  try {
    const a = yield "ready";
    log.push(`got ${a}`);
    const b = yield `doubled ${a * 2}`;
    log.push(`got ${b}`);
    return log;
  } finally {
    log.push("cleanup");
  }
}
const w = worker();
const steps = [w.next().value, w.next(5).value];
const end = w.next("x");
const w2 = worker();
w2.next();
const returned = w2.return("early");
const w3 = worker();
w3.next();
let thrown;
try { w3.throw(new Error("boom")); } catch (e) { thrown = e.message; }
return { steps, end, returned, thrown, afterDone: w.next() };
