// `__proto__: v` in an object literal sets the prototype (shorthand and computed keys do not)
const base = { greet() { return 'hi ' + this.n; } };
const o = { __proto__: base, n: 'o' };
const p = { '__proto__': null, x: 1 };
const q = { __proto__: 5, y: 2 };
const __proto__ = base;
const r = { __proto__ };
const s = { ['__proto__']: 7 };
console.log(o.greet(), Object.getPrototypeOf(o) === base, Object.keys(o).join(), Object.getPrototypeOf(p), Object.getPrototypeOf(q) === Object.prototype, Object.keys(q).join());
console.log(Object.getPrototypeOf(r) === Object.prototype, Object.getOwnPropertyNames(r).join(), Object.getOwnPropertyNames(s).join(), s.__proto__ === Object.prototype || s.__proto__);
try { new Function('return { __proto__: 1, "__proto__": 2 }'); console.log('accepted'); } catch (e) { console.log(e.name); }
