// Classic ES5 closure capture: an IIFE per iteration keeps each value.
var fns = [];
for (var i = 0; i < 4; i++) {
  fns.push((function (n) {
    return function () { return n * n; };
  })(i));
}
var shared = [];
for (var j = 0; j < 3; j++) {
  shared.push(function () { return j; });
}
console.log('captured:', fns.map(function (f) { return f(); }).join(','));
console.log('shared:', shared.map(function (f) { return f(); }).join(','));
return { captured: fns.map(function (f) { return f(); }), shared: shared[0]() };
