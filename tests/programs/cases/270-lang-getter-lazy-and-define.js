let computeCount = 0;
const obj = {
  get expensive() {
    computeCount++;
    const value = [1, 2, 3].map((x) => x * 100);
    Object.defineProperty(this, "expensive", { value, enumerable: true });
    return value;
  },
};
const first = obj.expensive;
const second = obj.expensive;
const counter = {};
let backing = 0;
Object.defineProperties(counter, {
  value: { get: () => backing, enumerable: true },
  increment: { value: () => ++backing },
});
counter.increment();
counter.increment();
return { first, same: first === second, computeCount, counter: counter.value, json: JSON.stringify(counter), keys: Object.keys(counter) };
