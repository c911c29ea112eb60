// a derived constructor's return inside try or for-of is checked once the body is left
// (after catch and finally blocks)
const out = [];
class B { constructor() { this.b = 1; } }
class C2 extends B { constructor() { super(); try { return 0; } catch (e) { return; } } }
try { new C2(); out.push('no error'); } catch (e) { out.push(e.name); }
class C3 extends B { constructor() { try { throw null; } catch (e) { return { own: true }; } finally { super(); } } }
out.push(JSON.stringify(new C3()));
class C4 extends B { constructor() { super(); for (const x of [1, 2]) { if (x === 2) return; } this.never = 1; } }
out.push(JSON.stringify(new C4()));
class C5 extends B { constructor() { try { return; } finally { } } }
try { new C5(); out.push('no error'); } catch (e) { out.push(e.name); }
class C6 extends B { constructor() { super(); try { throw new RangeError('x'); } finally { } } }
try { new C6(); out.push('no error'); } catch (e) { out.push(e.name); }
console.log(out.join('|'));
