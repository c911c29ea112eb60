const steps = [];
async function task(name) {
  steps.push(`${name}:start`);
  await null;
  steps.push(`${name}:after-await`);
  return name;
}
const p1 = task("one");
const p2 = task("two");
steps.push("both started");
const names = await Promise.all([p1, p2]);
steps.push(`done ${names.join("+")}`);
return steps;
