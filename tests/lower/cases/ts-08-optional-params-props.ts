class P { x?: number; y!: string; z: number = 3; constructor() {} }
function f(a?: number, b?: string) { return [a, b]; }
const p = new P();
[f(), Object.keys(p), p.z]
