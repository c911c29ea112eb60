async function f() { throw new RangeError('out of range'); }
await f();
'not reached'
