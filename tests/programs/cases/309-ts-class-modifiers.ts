abstract class Shape {
  protected constructor(public readonly name: string) {}
  abstract area(): number;
  describe(): string {
    return `${this.name}: ${this.area().toFixed(2)}`;
  }
}
class Circle extends Shape {
  constructor(private radius: number) {
    super("circle");
  }
  area(): number { return Math.PI * this.radius ** 2; }
}
class Square extends Shape {
  private static created = 0;
  constructor(protected side: number) {
    super("square");
    Square.created++;
  }
  area() { return this.side * this.side; }
  static count(): number { return Square.created; }
}
const shapes: Shape[] = [new Circle(1), new Square(3), new Square(1.5)];
return { lines: shapes.map((s) => s.describe()), squares: Square.count(), names: shapes.map((s) => s.name) };
