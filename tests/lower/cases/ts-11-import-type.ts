import type { Foo } from './foo';
export type { Foo };
export {};
type Local = Foo;
'erased'
