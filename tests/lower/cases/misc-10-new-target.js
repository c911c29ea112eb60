function F() { return new.target === F; }
const r = [];
r.push(new F() instanceof F);
class A { constructor() { this.nt = new.target === A; } }
r.push(new A().nt);
r
