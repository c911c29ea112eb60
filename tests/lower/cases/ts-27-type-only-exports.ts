export type Maybe<T> = T | null;
export interface Point { x: number; y: number }
const p: Point = { x: 1, y: 2 };
p
