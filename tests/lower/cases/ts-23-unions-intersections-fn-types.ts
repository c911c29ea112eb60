type Handler = ((e: string) => void) | null;
type Both = { a: 1 } & { b: 2 };
const h: Handler = (e) => { console.log('got', e); };
const both: Both = { a: 1, b: 2 };
h?.('evt');
both
