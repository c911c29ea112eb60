abstract class Shape { abstract area(): number; describe(): string { return `area=${this.area()}`; } }
class Rect extends Shape {
  private readonly w: number;
  declare tag: string;
  constructor(w: number, public h: number, protected label?: string) { super(); this.w = w; }
  area(): number { return this.w * this.h; }
}
const r = new Rect(2, 3, 'r');
[r.describe(), r.h, (r as any).label, Object.keys(r)]
