// a function or class assigned to a field is named by the field
class A { static field = function () {}; x = () => 1; y = class {}; static z = function () { return typeof z; }; }
const a = new A();
console.log(A.field.name, a.x.name, a.y.name, A.z.name, A.z());
