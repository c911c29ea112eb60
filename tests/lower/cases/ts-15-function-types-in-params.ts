function apply<T, R>(fn: (value: T, index: number) => R, xs: readonly T[]): R[] { return xs.map(fn); }
apply((v: number, i) => v * i, [1, 2, 3])
