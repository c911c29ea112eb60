function len(x: string): number;
function len(x: any[]): number;
function len(x: any): number { return x.length; }
class K { m(a: string): void; m(a: number): void; m(a: any) { return typeof a; } }
[len('abc'), len([1]), new K().m(1)]
