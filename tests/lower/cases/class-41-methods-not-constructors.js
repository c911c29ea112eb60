// methods and accessors (of classes and object literals) have no prototype and are not constructors
class A { m() {} get g() { return 1; } static s() {} }
const o = { m() { return 1; }, get x() { return 2; } };
console.log("prototype" in A.prototype.m, "prototype" in A.s, "prototype" in o.m, o.m(), o.x);
try { new o.m(); } catch (e) { console.log(e.name); }
try { new A.prototype.m(); } catch (e) { console.log(e.name); }
