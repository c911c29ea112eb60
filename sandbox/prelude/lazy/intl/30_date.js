/* Intl.DateTimeFormat with the en-US locale's patterns in UTC, the
 * sandbox's only time zone (its clock has no other: a program asking for
 * another zone gets a RangeError rather than a wrong hour), and
 * Date.prototype.toLocaleString, toLocaleDateString and toLocaleTimeString
 * on top of it. Components (weekday, era, year, month, day, hour, minute,
 * second, fractionalSecondDigits, timeZoneName), dateStyle and timeStyle,
 * hour12 and hourCycle. hour12: false gives hours 00-23 (Node 20 shows
 * 24 at midnight, an ICU default fixed since); formatToParts. Not here:
 * dayPeriod (read, not shown) and formatRange. */
'use strict';
var O = rt.orig; /* built-ins as the template had them (78_lazy.js) */
var I = rt.intl, Str = rt.String, TypeErr = rt.TypeErr, RangeErr = rt.RangeErr, apply = rt.apply;
var stringOption = I.stringOption, numberOption = I.numberOption, WHAT = 'Intl.DateTimeFormat';
var getTime = O.getTime, now = O.now, abs = O.abs;
var strUpper = O.toUpperCase, strSlice = O.slice;

var MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
              'November', 'December'];
var WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
var UTC_NAMES = ['UTC', 'ETC/UTC', 'GMT', 'ETC/GMT', 'UCT', 'ETC/UCT', 'ZULU', 'ETC/ZULU', 'UNIVERSAL', 'ETC/UNIVERSAL',
                 'GREENWICH', 'ETC/GREENWICH', 'GMT0', 'ETC/GMT0', 'GMT+0', 'GMT-0', 'ETC/GMT+0', 'ETC/GMT-0'];
var ZONE_NAME = { short: 'UTC', long: 'Coordinated Universal Time', shortOffset: 'GMT+0', longOffset: 'GMT+00:00',
                  shortGeneric: 'GMT+0', longGeneric: 'GMT+00:00' };
var ERA = { narrow: 'A', short: 'AD', long: 'Anno Domini' };
var COMPONENTS = [
    ['weekday', ['narrow', 'short', 'long']], ['era', ['narrow', 'short', 'long']], ['year', ['2-digit', 'numeric']],
    ['month', ['2-digit', 'numeric', 'narrow', 'short', 'long']], ['day', ['2-digit', 'numeric']],
    ['dayPeriod', ['narrow', 'short', 'long']], ['hour', ['2-digit', 'numeric']], ['minute', ['2-digit', 'numeric']],
    ['second', ['2-digit', 'numeric']], ['fractionalSecondDigits'],
    ['timeZoneName', ['short', 'long', 'shortOffset', 'longOffset', 'shortGeneric', 'longGeneric']]
];
var STYLES = ['full', 'long', 'medium', 'short'];

function pad2(n) { return n < 10 ? '0' + n : Str(n); }
function slice(s, a, b) { return apply(strSlice, s, b === void 0 ? [a] : [a, b]); }

function timeZone(tz) {
    if (tz === void 0) return 'UTC';
    tz = Str(tz);
    var up = apply(strUpper, tz, []);
    for (var i = 0; i < UTC_NAMES.length; i++) if (UTC_NAMES[i] === up) return 'UTC';
    throw new RangeErr('Invalid time zone specified: ' + tz + ' (the sandbox has UTC only)');
}

/* CreateDateTimeFormat: required is 'date', 'time' or 'any'; defaults is
 * 'date', 'time' or 'all' (ToDateTimeOptions). */
function init(o, required, defaults) {
    var s = {};
    stringOption(o, 'localeMatcher', ['lookup', 'best fit'], 'best fit', WHAT);
    var hour12 = o.hour12;
    s.hourCycle = stringOption(o, 'hourCycle', ['h11', 'h12', 'h23', 'h24'], void 0, WHAT);
    if (hour12 !== void 0) s.hourCycle = hour12 ? 'h12' : 'h23';
    s.timeZone = timeZone(o.timeZone);
    var any = void 0;
    for (var i = 0; i < COMPONENTS.length; i++) {
        var name = COMPONENTS[i][0], v;
        if (name === 'fractionalSecondDigits') v = numberOption(o[name], 1, 3, void 0, name);
        else v = stringOption(o, name, COMPONENTS[i][1], void 0, WHAT);
        s[name] = v;
        if (v !== void 0) any = name;
    }
    stringOption(o, 'formatMatcher', ['basic', 'best fit'], 'best fit', WHAT);
    s.dateStyle = stringOption(o, 'dateStyle', STYLES, void 0, WHAT);
    s.timeStyle = stringOption(o, 'timeStyle', STYLES, void 0, WHAT);
    if (s.dateStyle !== void 0 || s.timeStyle !== void 0) {
        if (any !== void 0) throw new TypeErr("Can't set option " + any + ' when ' + (s.dateStyle !== void 0 ? 'dateStyle' : 'timeStyle') + ' is used');
        if (required === 'date' && s.timeStyle !== void 0) throw new TypeErr('Invalid option : timeStyle');
        if (required === 'time' && s.dateStyle !== void 0) throw new TypeErr('Invalid option : dateStyle');
    } else {
        var need = true;
        if (required !== 'time' && (s.weekday || s.year || s.month || s.day)) need = false;
        if (required !== 'date' && (s.dayPeriod || s.hour || s.minute || s.second || s.fractionalSecondDigits)) need = false;
        if (need && defaults !== 'time') s.year = s.month = s.day = 'numeric';
        if (need && defaults !== 'date') s.hour = s.minute = s.second = 'numeric';
    }
    var timed = s.hour !== void 0 || s.timeStyle !== void 0;
    if (!timed) s.hourCycle = void 0;
    else if (s.hourCycle === void 0) s.hourCycle = 'h12';
    if (s.hour !== void 0 && (s.hourCycle === 'h23' || s.hourCycle === 'h24')) s.hour = '2-digit';
    if (s.hour !== void 0 && s.minute !== void 0) s.minute = '2-digit';
    if (s.minute !== void 0 && s.second !== void 0) s.second = '2-digit';
    return s;
}

/* ---- patterns ------------------------------------------------------------------------- */

var NNBSP = '\u202f';
function part(parts, type, value) { parts[parts.length] = { type: type, value: value }; }

/* The date's parts ([] when it shows no date component). */
function dateParts(s, p) {
    var out = [], y = s.year === '2-digit' ? pad2(abs(p.y) % 100) : Str(p.y);
    var d = s.day === '2-digit' ? pad2(p.d) : Str(p.d);
    var m = s.month;
    if (s.weekday !== void 0) {
        var wd = WEEKDAYS[p.wd];
        if (s.weekday === 'short') wd = slice(wd, 0, 3);
        else if (s.weekday === 'narrow') wd = wd[0];
        part(out, 'weekday', wd);
    }
    var rest = out.length;
    if (m === 'long' || m === 'short' || m === 'narrow') {
        var name = MONTHS[p.m];
        if (m === 'short') name = slice(name, 0, 3);
        else if (m === 'narrow') name = name[0];
        if (rest) part(out, 'literal', ', ');
        part(out, 'month', name);
        if (s.day !== void 0) { part(out, 'literal', ' '); part(out, 'day', d); }
        if (s.year !== void 0) { part(out, 'literal', s.day !== void 0 ? ', ' : ' '); part(out, 'year', y); }
    } else {
        var fields = [];
        if (m !== void 0) fields[fields.length] = ['month', m === '2-digit' ? pad2(p.m + 1) : Str(p.m + 1)];
        if (s.day !== void 0) fields[fields.length] = ['day', d];
        if (s.year !== void 0) fields[fields.length] = ['year', y];
        for (var i = 0; i < fields.length; i++) {
            if (i > 0) part(out, 'literal', '/');
            else if (rest) part(out, 'literal', ', ');
            part(out, fields[i][0], fields[i][1]);
        }
    }
    if (s.era !== void 0 && out.length > rest) { part(out, 'literal', ' '); part(out, 'era', ERA[s.era]); }
    return out;
}

/* The time's parts ([] when it shows no time component). */
function timeParts(s, p) {
    var hc = s.hourCycle, out = [], h = p.h;
    var frac = s.fractionalSecondDigits === void 0 ? '' : slice(Str(1000 + p.ms), 1, 1 + s.fractionalSecondDigits);
    function seconds() {
        part(out, 'second', out.length ? pad2(p.s) : Str(p.s));
        if (frac !== '') { part(out, 'literal', '.'); part(out, 'fractionalSecond', frac); }
    }
    if (s.hour !== void 0) {
        var hv = hc === 'h23' ? h : hc === 'h24' ? (h === 0 ? 24 : h) : hc === 'h11' ? h % 12 : (h % 12 === 0 ? 12 : h % 12);
        part(out, 'hour', s.hour === '2-digit' ? pad2(hv) : Str(hv));
        if (s.minute !== void 0) { part(out, 'literal', ':'); part(out, 'minute', pad2(p.min)); }
        if (s.second !== void 0) { part(out, 'literal', ':'); seconds(); }
        if (hc === 'h11' || hc === 'h12') { part(out, 'literal', NNBSP); part(out, 'dayPeriod', h < 12 ? 'AM' : 'PM'); }
    } else if (s.minute !== void 0) {
        if (s.second !== void 0) { part(out, 'minute', pad2(p.min)); part(out, 'literal', ':'); seconds(); }
        else part(out, 'minute', Str(p.min));
    } else if (s.second !== void 0) {
        seconds();
    }
    if (s.timeZoneName !== void 0) {
        if (out.length) part(out, 'literal', ' ');
        part(out, 'timeZoneName', ZONE_NAME[s.timeZoneName]);
    }
    return out;
}

function styled(s) {
    var c = {}, ds = s.dateStyle, ts = s.timeStyle;
    if (ds === 'full') c.weekday = 'long';
    if (ds === 'full' || ds === 'long') { c.month = 'long'; c.day = c.year = 'numeric'; }
    if (ds === 'medium') { c.month = 'short'; c.day = c.year = 'numeric'; }
    if (ds === 'short') { c.month = c.day = 'numeric'; c.year = '2-digit'; }
    if (ts !== void 0) {
        c.hour = s.hourCycle === 'h23' || s.hourCycle === 'h24' ? '2-digit' : 'numeric';
        c.minute = '2-digit';
        if (ts !== 'short') c.second = '2-digit';
        if (ts === 'full') c.timeZoneName = 'long';
        if (ts === 'long') c.timeZoneName = 'short';
        c.hourCycle = s.hourCycle;
    }
    return c;
}

function formatToParts(s, date) {
    var x = date === void 0 ? now() : +date;
    if (x !== x || abs(x) > 8.64e15) throw new RangeErr('Invalid time value');
    var dt = new O.Date(x);
    var p = { y: dt.getUTCFullYear(), m: dt.getUTCMonth(), d: dt.getUTCDate(), wd: dt.getUTCDay(), h: dt.getUTCHours(),
              min: dt.getUTCMinutes(), s: dt.getUTCSeconds(), ms: dt.getUTCMilliseconds() };
    var c = s.dateStyle !== void 0 || s.timeStyle !== void 0 ? styled(s) : s;
    var dp = dateParts(c, p), tp = timeParts(c, p), i;
    if (dp.length && tp.length) {
        var at = s.dateStyle === 'full' || s.dateStyle === 'long' || (s.dateStyle === void 0 && c.month === 'long');
        var weekdayOnly = c.weekday !== void 0 && c.year === void 0 && c.month === void 0 && c.day === void 0;
        part(dp, 'literal', at ? ' at ' : weekdayOnly ? ' ' : ', ');
    }
    for (i = 0; i < tp.length; i++) dp[dp.length] = tp[i];
    return dp;
}

/* The parts joined; the space before AM/PM is a plain one here, as Node's
 * format() gives it (its formatToParts keeps ICU's U+202F). */
function format(s, date) {
    var parts = formatToParts(s, date), out = '';
    for (var i = 0; i < parts.length; i++) out += parts[i].value === NNBSP ? ' ' : parts[i].value;
    return out;
}

/* ---- Intl.DateTimeFormat and Date.prototype.toLocale*String ----------------------------------- */

var DateTimeFormat = I.constructor('DateTimeFormat', function (o) { return init(o, 'any', 'date'); });
I.boundMethod(DateTimeFormat, 'DateTimeFormat', 'format', 1, format);
var RESOLVED = ['hourCycle', 'weekday', 'era', 'year', 'month', 'day', 'dayPeriod', 'hour', 'minute', 'second',
                'fractionalSecondDigits', 'timeZoneName', 'dateStyle', 'timeStyle'];
rt.install(DateTimeFormat.prototype, {
    formatToParts(date) { return formatToParts(I.slots(this, 'DateTimeFormat', 'formatToParts'), date); },
    resolvedOptions() {
        var s = I.slots(this, 'DateTimeFormat', 'resolvedOptions');
        var out = { locale: I.LOCALE, calendar: 'gregory', numberingSystem: 'latn', timeZone: s.timeZone };
        for (var i = 0; i < RESOLVED.length; i++) {
            var k = RESOLVED[i];
            if (s[k] === void 0) continue;
            out[k] = s[k];
            if (k === 'hourCycle') out.hour12 = s[k] === 'h11' || s[k] === 'h12';
        }
        return out;
    }
});

function toLocale(required, defaults) {
    var plain = init(rt.create(null), required, defaults); /* the call with no arguments */
    return function (locales, options) {
        var x = apply(getTime, this, []);
        if (x !== x) return 'Invalid Date';
        if (locales === void 0 && options === void 0) return format(plain, x);
        I.checkLocales(locales);
        return format(init(I.optionsObject(options), required, defaults), x);
    };
}
/* Date.prototype.toLocale*String (installed by 78_lazy.js) */
rt.lazyMethods.dateToLocaleString = toLocale('any', 'all');
rt.lazyMethods.dateToLocaleDateString = toLocale('date', 'date');
rt.lazyMethods.dateToLocaleTimeString = toLocale('time', 'time');
