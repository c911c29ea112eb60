const arr = ["x", "y"];
const it = arr[Symbol.iterator]();
const steps = [it.next(), it.next(), it.next()];
const entriesIt = new Map([["k", "v"]]).entries();
const first = entriesIt.next().value;
const strIt = "ab"[Symbol.iterator]();
const fromIter = Array.from({ [Symbol.iterator]: function* () { yield 1; yield 2; } });
const [a, b] = new Set(["s1", "s2", "s3"]);
function* g() { yield 1; }
const gen = g();
return { steps, first, str: [strIt.next().value, strIt.next().value], fromIter, destructured: [a, b], selfIterable: gen[Symbol.iterator]() === gen };
