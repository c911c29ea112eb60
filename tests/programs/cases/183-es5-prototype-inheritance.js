function Shape(name) { this.name = name; }
Shape.prototype.describe = function () {
  return this.name + ' with area ' + this.area().toFixed(2);
};
function Circle(r) { Shape.call(this, 'circle'); this.r = r; }
Circle.prototype = Object.create(Shape.prototype);
Circle.prototype.constructor = Circle;
Circle.prototype.area = function () { return Math.PI * this.r * this.r; };
function Rect(w, h) { Shape.call(this, 'rect'); this.w = w; this.h = h; }
Rect.prototype = Object.create(Shape.prototype);
Rect.prototype.constructor = Rect;
Rect.prototype.area = function () { return this.w * this.h; };

var shapes = [new Circle(1.5), new Rect(2, 3.25), new Circle(0.5)];
for (var i = 0; i < shapes.length; i++) console.log(shapes[i].describe());
var total = shapes.reduce(function (s, x) { return s + x.area(); }, 0);
return {
  total: Math.round(total * 1000) / 1000,
  circles: shapes.filter(function (s) { return s instanceof Circle; }).length,
  isShape: shapes[1] instanceof Shape
};
