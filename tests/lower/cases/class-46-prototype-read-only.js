// a class's prototype property is not writable (a static field named prototype is a TypeError)
class A {}
const d = Object.getOwnPropertyDescriptor(A, "prototype");
const out = [d.writable, d.enumerable, d.configurable];
try { A.prototype = {}; out.push("assigned"); } catch (e) { out.push(e.name); }
try { class B { static ["prototype"] = 1; } out.push("defined"); } catch (e) { out.push(e.name); }
class E extends A { m() { return 1; } }
out.push(new E().m(), new E() instanceof A);
out
