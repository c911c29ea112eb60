/* The Intl object and what its formatters share: the locale argument (the
 * sandbox has the data of one locale, en-US, so every valid tag resolves to
 * "en-US", as in a Node built with small-icu; an invalid one is a
 * RangeError), option reading as ECMA-402 does it (GetOption,
 * GetNumberOption) and the internal slots of formatter objects. The
 * formatters are in 20_number.js, 30_date.js and 40_collator.js; the
 * module loads on first use (78_lazy.js). */
'use strict';
var O = rt.orig; /* built-ins as the template had them (78_lazy.js) */
var TypeErr = rt.TypeErr, RangeErr = rt.RangeErr, Str = rt.String, isObject = rt.isObject;
var toObject = rt.toObject, toLength = rt.toLength, floor = O.floor;
var reTest = O.reTest, apply = rt.apply;
var TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|[0-9]{3}))?(?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*(?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*(?:-[xX](?:-[A-Za-z0-9]{1,8})+)?$/;
var LOCALE = 'en-US';

var Intl = {};
rt.def(G, 'Intl', Intl);
rt.tag(Intl, 'Intl');

/* CanonicalizeLocaleList, reduced to its checks: the locales argument must
 * be undefined, a string or a list of strings (or Intl.Locale-like objects
 * with a string form) that are well-formed language tags. Returns the tags. */
function checkLocales(locales) {
    var out = [];
    if (locales === void 0) return out;
    var list = typeof locales === 'string' ? [locales] : toObject(locales, 'Intl'), n = toLength(list.length);
    for (var i = 0; i < n; i++) {
        if (!(i in list)) continue;
        var tag = list[i];
        if (typeof tag !== 'string' && !isObject(tag)) throw new TypeErr('Language ID should be string or object.');
        tag = Str(tag);
        if (!apply(reTest, TAG, [tag])) throw new RangeErr('Incorrect locale information provided');
        out[out.length] = tag;
    }
    return out;
}

/* The requested tags the sandbox has data for: en and en-US. */
function supported(locales) {
    var tags = checkLocales(locales), out = [];
    for (var i = 0; i < tags.length; i++)
        if (apply(reTest, /^en(?:-US)?$/i, [tags[i]])) out[out.length] = tags[i].length === 2 ? 'en' : 'en-US';
    return out;
}

/* options: undefined gives a fresh object; anything else ToObject. */
function optionsObject(options) {
    return options === void 0 ? rt.create(null) : toObject(options, 'Intl');
}

/* GetOption for string options: the value among `values`, or `fallback`. */
function stringOption(options, prop, values, fallback, what) {
    var v = options[prop];
    if (v === void 0) return fallback;
    v = Str(v);
    for (var i = 0; i < values.length; i++) if (values[i] === v) return v;
    throw new RangeErr('Value ' + v + ' out of range for ' + what + ' options property ' + prop);
}

function booleanOption(options, prop, fallback) {
    var v = options[prop];
    return v === void 0 ? fallback : !!v;
}

/* DefaultNumberOption: an integer in [min, max], or fallback when undefined. */
function numberOption(value, min, max, fallback, prop) {
    if (value === void 0) return fallback;
    value = +value;
    if (value !== value || value < min || value > max) throw new RangeErr(prop + ' value is out of range.');
    return floor(value);
}

/* Internal slots of formatter objects, kept where programs cannot reach them. */
var SLOTS = rt.HIDDEN;
function setSlots(obj, slots) {
    rt.defineProperty(obj, SLOTS, { value: slots });
    return obj;
}
function slots(obj, kind, method) {
    var s = isObject(obj) ? obj[SLOTS] : void 0;
    if (s === void 0 || s.kind !== kind)
        throw new TypeErr('Method Intl.' + kind + '.prototype.' + method + ' called on incompatible receiver ' + rt.what(obj));
    return s;
}

/* A constructor of Intl.X: callable with or without new, as the spec allows
 * for the older ones; the newer ones (needNew) throw without it. */
function constructor(name, init, length, needNew) {
    var C = function (locales, options) {
        if (needNew && !(this instanceof C)) throw new TypeErr("Constructor Intl." + name + " requires 'new'");
        var self = this instanceof C && this[SLOTS] === void 0 ? this : rt.create(C.prototype);
        checkLocales(locales);
        var s = init(optionsObject(options));
        s.kind = name;
        return setSlots(self, s);
    };
    rt.defineProperty(C, 'name', { value: name, configurable: true });
    rt.defineProperty(C, 'length', { value: length === void 0 ? 0 : length, configurable: true });
    rt.tag(C.prototype, 'Intl.' + name);
    rt.install(C, {
        supportedLocalesOf(locales) { return supported(locales); }
    }, { supportedLocalesOf: 1 });
    rt.def(Intl, name, C);
    return C;
}

/* A getter C.prototype[name] that gives a function bound to the object
 * (`format` of NumberFormat and DateTimeFormat, `compare` of Collator),
 * the same one each time: fn(slots, a, b). */
function boundMethod(C, kind, name, length, fn) {
    rt.defineProperty(C.prototype, name, {
        get: function () {
            var s = slots(this, kind, name);
            if (s.bound === void 0) {
                s.bound = function (a, b) { return fn(s, a, b); };
                rt.defineProperty(s.bound, 'name', { value: '', configurable: true });
                rt.defineProperty(s.bound, 'length', { value: length, configurable: true });
            }
            return s.bound;
        },
        enumerable: false, configurable: true
    });
}

rt.intl = {
    LOCALE: LOCALE,
    checkLocales: checkLocales,
    optionsObject: optionsObject,
    stringOption: stringOption,
    booleanOption: booleanOption,
    numberOption: numberOption,
    slots: slots,
    constructor: constructor,
    boundMethod: boundMethod
};
