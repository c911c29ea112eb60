const k = 'dyn';
const o = { get [k]() { return 'got ' + k; }, [k + 'Method']() { return 'm'; } };
[o.dyn, o.dynMethod()]
