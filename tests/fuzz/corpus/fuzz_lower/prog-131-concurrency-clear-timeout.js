let fired = [];
const t1 = setTimeout(() => fired.push("cancelled one"), 30);
const t2 = setTimeout(() => fired.push("kept"), 40);
clearTimeout(t1);
await sleep(100);
clearTimeout(t2); // already fired: harmless
return fired;
