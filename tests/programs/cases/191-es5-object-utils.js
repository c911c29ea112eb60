var base = { a: 1, b: 2 };
var derived = Object.create(base);
derived.c = 3;
Object.defineProperty(derived, 'hidden', { value: 42, enumerable: false });
var own = [], all = [];
for (var k in derived) { all.push(k); if (derived.hasOwnProperty(k)) own.push(k); }
console.log('own:', own.join(','), 'all:', all.sort().join(','));
var frozen = Object.freeze({ x: 1 });
frozen.x = 2;
console.log('frozen.x =', frozen.x, Object.isFrozen(frozen));
var getters = { _v: 5 };
Object.defineProperty(getters, 'double', { get: function () { return this._v * 2; }, enumerable: true });
return { keys: Object.keys(derived), hidden: derived.hidden, proto: Object.getPrototypeOf(derived) === base, dbl: getters.double, json: JSON.stringify(getters) };
