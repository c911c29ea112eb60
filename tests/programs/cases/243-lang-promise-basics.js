const steps = [];
const p = new Promise((resolve) => {
  steps.push("executor runs synchronously");
  resolve(1);
  resolve(2); // ignored
});
const v = await p.then((x) => x + 1).then((x) => { steps.push(`then got ${x}`); return x * 10; });
const rejected = await Promise.reject(new Error("nope")).catch((e) => `recovered from ${e.message}`);
const fin = await Promise.resolve("kept").finally(() => steps.push("finally ran"));
const thenable = await { then(res) { res("thenable value"); } };
const nestedResolve = await Promise.resolve(Promise.resolve("flattened"));
return { v, rejected, fin, thenable, nestedResolve, steps };
