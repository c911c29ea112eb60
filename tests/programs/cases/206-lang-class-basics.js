class Point {
  constructor(x, y) {
    this.x = x;
    this.y = y;
  }
  add(other) { return new Point(this.x + other.x, this.y + other.y); }
  get length() { return Math.hypot(this.x, this.y); }
  toString() { return `(${this.x}, ${this.y})`; }
  static origin() { return new Point(0, 0); }
}
const p = new Point(3, 4).add(Point.origin()).add(new Point(1, 1));
return {
  str: `${p}`,
  length: Math.round(p.length * 1000) / 1000,
  isPoint: p instanceof Point,
  typeofClass: typeof Point,
  methodsNotEnumerable: Object.keys(p),
  json: JSON.stringify(p),
};
