interface Shape { area(): number }
class Sq implements Shape { constructor(private s: number) {} area() { return this.s ** 2; } }
function total<T extends Shape>(xs: T[]): number { return xs.reduce((a, x) => a + x.area(), 0); }
total([new Sq(2), new Sq(3)])
