declare const process: any;
declare function external(x: number): void;
declare module 'foo' { export const x: number; }
type Fn = (a: number, b?: string) => void;
type Mapped<T> = { readonly [K in keyof T]?: T[K] };
type Cond<T> = T extends string ? 'str' : T extends number ? 'num' : never;
type Tpl = `prefix-${string}`;
let f: Fn = (a) => {};
'ok'
