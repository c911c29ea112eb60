const cfg = { a: 1, b: 'x' } as const;
type K = keyof typeof cfg;
const keys = Object.keys(cfg) as K[];
keys
