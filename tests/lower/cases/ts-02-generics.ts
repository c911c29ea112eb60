function identity<T>(x: T): T { return x; }
const pair = <A, B>(a: A, b: B): [A, B] => [a, b];
const m = new Map<string, Array<number>>();
m.set('a', [1]);
const arrow = <T,>(x: T) => x;
[identity<number>(5), pair<string, number>('a', 1), m.get('a'), arrow('g')]
