let el!: { x: number };
el = { x: 1 };
const val = (<any>el).x as number;
const arr = [1, 2, 3] as Array<number>;
[val, arr.length, el!.x]
