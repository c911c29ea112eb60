class Point {
  constructor(x, y) { this.x = x; this.y = y; }
  norm() { return Math.sqrt(this.x * this.x + this.y * this.y); }
  static origin() { return new Point(0, 0); }
  get sum() { return this.x + this.y; }
  set sum(v) { this.x = v; this.y = 0; }
}
const p = new Point(3, 4);
p.sum = 7;
[new Point(3, 4).norm(), Point.origin().sum, p.x, Object.keys(p), typeof Point]
