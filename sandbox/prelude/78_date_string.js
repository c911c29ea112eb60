/* Date.prototype.toString, toDateString, toTimeString and toUTCString
 * (toGMTString) in the forms V8 and every browser give, in UTC (the
 * sandbox's clock): "Tue Mar 05 2024 14:07:09 GMT+0000 (Coordinated
 * Universal Time)" and "Tue, 05 Mar 2024 14:07:09 GMT", where Duktape's
 * own are ISO-like. Date.parse reads both back (sandbox/worker/date_parse.c). */
'use strict';
var apply = rt.apply, Str = rt.String, getTime = Date.prototype.getTime, abs = Math.abs, NativeDate = Date;
var DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
var ZONE = 'GMT+0000 (Coordinated Universal Time)';

function pad(n, width) {
    var s = Str(abs(n));
    while (s.length < width) s = '0' + s;
    return n < 0 ? '-' + s : s;
}

/* The Date of `this` (a TypeError for anything else), or null when invalid. */
function valid(self) {
    var x = apply(getTime, self, []);
    return x !== x ? null : new NativeDate(x);
}
function datePart(d) {
    return DAYS[d.getUTCDay()] + ' ' + MONTHS[d.getUTCMonth()] + ' ' + pad(d.getUTCDate(), 2) + ' ' + pad(d.getUTCFullYear(), 4);
}
function timePart(d) {
    return pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2) + ':' + pad(d.getUTCSeconds(), 2);
}

var methods = {
    toString() {
        var d = valid(this);
        return d === null ? 'Invalid Date' : datePart(d) + ' ' + timePart(d) + ' ' + ZONE;
    },
    toDateString() {
        var d = valid(this);
        return d === null ? 'Invalid Date' : datePart(d);
    },
    toTimeString() {
        var d = valid(this);
        return d === null ? 'Invalid Date' : timePart(d) + ' ' + ZONE;
    },
    toUTCString() {
        var d = valid(this);
        if (d === null) return 'Invalid Date';
        return DAYS[d.getUTCDay()] + ', ' + pad(d.getUTCDate(), 2) + ' ' + MONTHS[d.getUTCMonth()] + ' ' +
            pad(d.getUTCFullYear(), 4) + ' ' + timePart(d) + ' GMT';
    }
};
rt.install(Date.prototype, methods);
rt.def(Date.prototype, 'toGMTString', Date.prototype.toUTCString);
