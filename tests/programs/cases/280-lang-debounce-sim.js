// Debounce with real timers: only the last call in a burst runs.
function debounce(fn, ms) {
  let t;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
}
const calls = [];
const save = debounce((v) => calls.push(v), 40);
save("a"); save("b"); save("c");
await sleep(120);
save("d");
await sleep(120);
return calls;
