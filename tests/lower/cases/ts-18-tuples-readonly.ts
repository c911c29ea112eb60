const t: readonly [string, number?] = ['a'];
const u: [name: string, ...rest: number[]] = ['n', 1, 2];
function f(...args: [number, string]): string { return args.join(); }
[t, u, f(1, 'x')]
