// super in a class without extends is Object.prototype (Function.prototype in static members)
class A {
    m() { return [super.toString === Object.prototype.toString, super.hasOwnProperty('q'), super.toString()]; }
    set(v) { super.w = v; return this.w; }
    static s() { return [super.name, typeof super.call, super.call === Function.prototype.call]; }
}
const a = new A();
a.q = 1;
[a.m(), a.set(5), A.s()]
