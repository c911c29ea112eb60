function isStr(x: unknown): x is string { return typeof x === 'string'; }
function assertNum(x: unknown): asserts x is number { if (typeof x !== 'number') throw new Error('nan'); }
const vals: unknown[] = ['a', 1];
const strs = vals.filter(isStr);
assertNum(vals[1]);
strs
