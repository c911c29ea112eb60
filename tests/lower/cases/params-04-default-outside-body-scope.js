// a parameter default sees what is outside the function, not the body's declarations
var x = 'outside';
let probeParams, probeBody;
((_ = probeParams = function () { return x; }) => {
  var x = 'inside';
  probeBody = function () { return x; };
})();
console.log(probeParams(), probeBody());
function f(a = x, b = () => typeof g) {
  var x = 'body';
  function g() {}
  let y = a;
  return [a, b(), x, y, typeof g];
}
console.log(f().join());
const o = { m(p = () => x) { const x = 'm'; return [p(), x]; } };
console.log(o.m().join());
function h(a, b = a) { var a = 'redeclared'; return [a, b]; }
console.log(h('arg').join());
