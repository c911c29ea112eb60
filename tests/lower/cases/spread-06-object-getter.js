let calls = 0;
const src = { get g() { calls++; return 'G'; } };
const o = { ...src, get h() { return 'H'; } };
[o.g, o.h, calls, Object.getOwnPropertyDescriptor(o, 'h').get !== undefined]
