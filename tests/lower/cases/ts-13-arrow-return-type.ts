const f = (x: number): { doubled: number } => ({ doubled: x * 2 });
const g = async (s: string): Promise<string> => s.toUpperCase();
const h = ({ a, b }: { a: number; b: number }, [c]: number[] = [0]): number => a + b + c;
[f(2), await g('x'), h({ a: 1, b: 2 })]
