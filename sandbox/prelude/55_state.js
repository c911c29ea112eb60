/* The built-in namespaces the host turns on per run (codemode.state,
 * codemode.skills): `state` (JSON values kept across executions, with
 * versions and compare-and-set) and `skills` (save, list, delete, and one
 * function per saved skill). Every operation is a host call (op "state",
 * "skills", "skill"); the host owns the database. A skill's code is the
 * body of an async function receiving args: the host validates the
 * arguments and answers its code, lowered and compiled here, and it runs
 * inside this execution with its limits and its tools. */
var def = rt.def, apply = rt.apply, request = rt.request, parse = rt.parse, stringify = rt.stringify;
var Str = rt.String, compileSkill = rt.host.compileSkill, hasOwn = rt.hasOwn;
var then = Promise.prototype.then;

var StateError = rt.defineError('StateError');
rt.defineError('StateConflictError', null, StateError);

function map(p, f) { return apply(then, p, [f]); }
function rejected(e) { var p = rt.newP(); rt.rejectP(p, e); return p; }

/* --- state ----------------------------------------------------------------- */

function stateCall(name, args) { return request('state', name, args); }

function makeState() {
    var s = {};
    def(s, 'get', function get(key) {
        return map(stateCall('get', { key: key }), function (r) { return r.found ? r.value : void 0; });
    });
    def(s, 'entry', function entry(key) {
        return map(stateCall('get', { key: key }), function (r) {
            return r.found ? { value: r.value, version: r.version } : void 0;
        });
    });
    def(s, 'set', function set(key, value, options) {
        var a = { key: key, value: value };
        if (options !== void 0 && options !== null && options.ifVersion !== void 0) a.ifVersion = options.ifVersion;
        return stateCall('set', a);
    });
    def(s, 'delete', function (key) { return stateCall('delete', { key: key }); });
    def(s, 'list', function list(prefix) {
        return stateCall('list', { prefix: prefix === void 0 || prefix === null ? '' : Str(prefix) });
    });
    return s;
}

/* --- skills ---------------------------------------------------------------- */

var RESERVED = { save: 1, list: 1, 'delete': 1 };

/* The code of the skills this run compiled, under '$' + name: the excerpt
 * of a run-time error in one (90_main.js). */
var skillCode = rt.skillCode = {};

/* The skill's code as a function (throws SyntaxError at the line and column
 * of the skill's code; sandbox/lower/skill.h). Run-time errors in it name
 * the file "skills.<name>" (line n + 1 is the code's line n). */
function compile(name, code) {
    var fn = compileSkill(name, code);
    skillCode['$' + name] = code;
    return fn;
}

function skillFn(name) {
    return function (args) {
        var a = args === void 0 ? {} : args;
        return map(request('skill', name, a), function (r) {
            return compile(name, r.code)(parse(stringify(a)));
        });
    };
}

function addSkill(s, name) {
    if (typeof name === 'string' && !hasOwn(RESERVED, name))
        rt.defineProperty(s, name, { value: skillFn(name), enumerable: true, writable: true, configurable: true });
}

function makeSkills(names) {
    var s = {};
    def(s, 'save', function save(skill) {
        try {
            if (skill !== null && typeof skill === 'object' && typeof skill.code === 'string' &&
                /^[A-Za-z_][A-Za-z0-9_]*$/.test(skill.name))
                compile(skill.name, skill.code); /* a syntax error is reported now, not at its first call */
        } catch (e) {
            return rejected(e);
        }
        return map(request('skills', 'save', skill), function (r) { addSkill(s, r.name); return r; });
    });
    def(s, 'list', function list() { return request('skills', 'list', void 0); });
    def(s, 'delete', function (name) {
        return map(request('skills', 'delete', { name: name }), function (ok) {
            if (ok && typeof name === 'string' && !hasOwn(RESERVED, name)) delete s[name];
            return ok;
        });
    });
    for (var i = 0; i < names.length; i++) addSkill(s, names[i]);
    return s;
}

/* Built once, in the template heap: a run that changes them (skills.save adds
 * a function) is undone by the restore between runs, like any global. */
var STATE = makeState(), SKILLS = makeSkills([]);

/* Called by the host (sandbox/worker/engine.c) before the program, when any is on:
 * text is {"state":bool,"skills":[names]} (skills absent when off). */
rt.installBuiltins = function (text) {
    var cfg = parse(text);
    if (cfg.state) def(G, 'state', STATE);
    if (cfg.skills) {
        for (var i = 0; i < cfg.skills.length; i++) addSkill(SKILLS, cfg.skills[i]);
        def(G, 'skills', SKILLS);
    }
};
