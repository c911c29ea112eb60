/* Prepended to every tests/prelude program (by record.mjs and by the cmocka test).
 * t(name, fn) records one case: fn's result encoded so that JSON keeps what
 * it would lose (undefined, NaN, -0, Infinity, holes), or {threw: name}. */
var __out = {};
function __enc(v, depth) {
    if (v === undefined) return '<undefined>';
    if (typeof v === 'number') {
        if (v !== v) return '<NaN>';
        if (v === 0 && 1 / v < 0) return '<-0>';
        if (v === Infinity || v === -Infinity) return '<' + v + '>';
        return v;
    }
    if (typeof v === 'symbol') return '<symbol>';
    if (typeof v === 'function') return '<function>';
    if (v === null || typeof v !== 'object') return v;
    if (depth > 20) return '<deep>';
    var i, out;
    if (Array.isArray(v)) {
        out = [];
        for (i = 0; i < v.length; i++) out[i] = i in v ? __enc(v[i], depth + 1) : '<hole>';
        return out;
    }
    out = {};
    var ks = Object.keys(v);
    for (i = 0; i < ks.length; i++) out[ks[i]] = __enc(v[ks[i]], depth + 1);
    return out;
}
function t(name, fn) {
    if (Object.prototype.hasOwnProperty.call(__out, name)) throw new Error('duplicate case ' + name);
    var r;
    try {
        r = __enc(fn(), 0);
    } catch (e) {
        r = { threw: e !== null && typeof e === 'object' && typeof e.name === 'string' ? e.name : String(e) };
    }
    __out[name] = r;
}
