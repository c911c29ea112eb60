const slowCall = tools.slow.wait({ ms: 300, label: "late" });
const first = await Promise.race([Promise.resolve("immediate"), slowCall]);
const late = await slowCall;
return [first, late.label];
