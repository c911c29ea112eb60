// inside a class, its own name is a constant binding (the outer one of a declaration is not)
const out = [];
class C {
  static m() { try { C = 1; out.push('assigned'); } catch (e) { out.push(e.name); } return typeof C; }
  static d() { try { [C] = [1]; } catch (e) { out.push(e.name); } }
}
out.push(C.m());
C.d();
let D = class E { static f() { try { E = 2; } catch (e) { out.push(e.name); } } };
D.f();
class F {}
F = 5;
out.push(F);
console.log(out.join('|'));
