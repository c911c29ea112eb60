/* The part of Web Crypto programs use: crypto.getRandomValues(typedArray)
 * and crypto.randomUUID() (version 4), with bytes from the kernel's CSPRNG
 * (rt.host.fillRandom, sandbox/worker/crypto_random.c). Not here: crypto.subtle. */
'use strict';
var O = rt.orig; /* built-ins as the template had them (78_lazy.js) */
var TypeErr = rt.TypeErr, apply = rt.apply, fill = rt.host.fillRandom, objToString = rt.objectToString;
var INTEGER_ARRAYS = { '[object Int8Array]': 1, '[object Uint8Array]': 1, '[object Uint8ClampedArray]': 1,
                       '[object Int16Array]': 1, '[object Uint16Array]': 1, '[object Int32Array]': 1,
                       '[object Uint32Array]': 1 };
var HEX = '0123456789abcdef';

function quotaError(n) {
    var e = new rt.ErrorCtor("Failed to execute 'getRandomValues' on 'Crypto': The ArrayBufferView's byte length (" + n +
                             ') exceeds the number of bytes of entropy available via this API (65536).');
    rt.def(e, 'name', 'QuotaExceededError');
    return rt.blame(e);
}

var crypto = {};
rt.tag(crypto, 'Crypto');
rt.install(crypto, {
    getRandomValues(array) {
        if (!rt.isObject(array) || !rt.hasOwn(INTEGER_ARRAYS, apply(objToString, array, [])))
            throw new TypeErr("Failed to execute 'getRandomValues' on 'Crypto': The provided value is not an integer typed array");
        if (array.byteLength > 65536) throw quotaError(array.byteLength);
        fill(array);
        return array;
    },
    randomUUID() {
        var b = new O.Uint8Array(16), s = '';
        fill(b);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        for (var i = 0; i < 16; i++) {
            if (i === 4 || i === 6 || i === 8 || i === 10) s += '-';
            s += HEX[b[i] >> 4] + HEX[b[i] & 15];
        }
        return s;
    }
}, { getRandomValues: 1, randomUUID: 0 });
rt.def(G, 'crypto', crypto);
