/* The tools proxy: tools.<server>.<tool>(args), callTool("server.tool", args),
 * searchTools and describeTool. Each call becomes a host call that returns an
 * id; the host later settles it through rt.settle(id, ok, jsonText). Calls past
 * the concurrency limit wait in a queue here. Names are resolved (and unknown
 * names explained) by the host, which holds the catalog and the policy. */
var def = rt.def, apply = rt.apply, stringify = rt.stringify, parse = rt.parse, Str = rt.String;
var hostCall = rt.host.call, S = rt.HIDDEN;
/* waiting[waitHead..] are the calls past the concurrency limit, oldest
 * first (an index, not shift(), which moves every element: 1000 calls at
 * once over the default limit of 256 cost ~28M instructions). */
var pending = {}, waiting = [], waitHead = 0, inflight = 0;
rt.maxConcurrent = 256;

function defineError(name, init, Parent) {
    function E(message) {
        if (!(this instanceof E)) return new E(message);
        var e = new rt.ErrorCtor(message === void 0 ? '' : Str(message));
        def(this, 'message', e.message);
        if (init) apply(init, this, arguments);
    }
    E.prototype = rt.create((Parent || rt.ErrorCtor).prototype);
    def(E.prototype, 'constructor', E);
    def(E.prototype, 'name', name);
    def(G, name, E);
    return E;
}
var ToolError = defineError('ToolError', function (message, tool, result) {
    this.tool = tool;
    this.result = result;
});
var ToolArgumentError = defineError('ToolArgumentError', function (message, tool, violations) {
    this.tool = tool;
    this.violations = violations || [];
});
/* Refused by the host's policy (.decision "deny" | "not_granted") or not
 * approved (.reason); both are ToolErrors, so one catch covers every tool failure. */
var ToolPolicyError = defineError('ToolPolicyError', function (message, tool, decision) {
    this.tool = tool;
    this.decision = decision;
}, ToolError);
var ToolApprovalError = defineError('ToolApprovalError', function (message, tool, reason) {
    this.tool = tool;
    this.reason = reason;
}, ToolError);

/* The server needs an OAuth login; the message names `mcp-codemode login NAME`. */
var ToolAuthError = defineError('ToolAuthError', function (message, tool) {
    this.tool = tool;
}, ToolError);

/* The call site, for errors raised by the host. An Error made at the call
 * records the call stack (function and pc of each frame, 10 deep) for ~1 us;
 * its lines are worked out only when the call fails. (Walking the stack with
 * Duktape.act at every call cost ~3.5 us: an object and a pc-to-line lookup
 * per frame.) */
var ErrorCtor = rt.ErrorCtor, strIndexOf = Str.prototype.indexOf, charCodeAt = Str.prototype.charCodeAt;
var getStack = Object.getOwnPropertyDescriptor(ErrorCtor.prototype, 'stack').get;
var SITE = '(' + rt.PROGRAM + ':';

/* The line of the innermost program frame in the stack of `site`, or undefined. */
function callLine(site) {
    var stack = apply(getStack, site, []);
    var at = typeof stack === 'string' ? apply(strIndexOf, stack, [SITE]) : -1;
    if (at < 0) return void 0;
    var line = 0;
    for (var i = at + SITE.length; i < stack.length; i++) {
        var d = apply(charCodeAt, stack, [i]) - 48;
        if (d < 0 || d > 9) break;
        line = line * 10 + d;
    }
    return line > 0 ? line : void 0;
}

function makeError(info, line) {
    var e;
    if (info.name === 'ToolError') e = new ToolError(info.message, info.tool, info.result);
    else if (info.name === 'ToolArgumentError') e = new ToolArgumentError(info.message, info.tool, info.violations);
    else if (info.name === 'ToolPolicyError') e = new ToolPolicyError(info.message, info.tool, info.decision);
    else if (info.name === 'ToolApprovalError') e = new ToolApprovalError(info.message, info.tool, info.reason);
    else if (info.name === 'ToolAuthError') e = new ToolAuthError(info.message, info.tool);
    else {
        var C = G[info.name];
        e = (typeof C === 'function' && /Error$/.test(info.name)) ? new C(info.message) : new rt.ErrorCtor(info.message);
    }
    if (info.code !== void 0 && !(e instanceof ToolError)) e.code = info.code; /* StateError */
    if (line !== void 0) e[S] = { line: line };
    return e;
}

function dispatch(c) {
    var id;
    try {
        id = hostCall(c.op, c.name, c.args);
    } catch (e) {
        rt.rejectP(c.p, e);
        return;
    }
    inflight++;
    pending[id] = c;
}

function request(op, name, args) {
    var text;
    if (args === void 0) text = op === 'tool' ? '{}' : 'null';
    else {
        text = stringify(args);
        if (text === void 0) throw new TypeError('tool arguments must be a JSON value, got ' + typeof args);
    }
    var c = { op: op, name: Str(name), args: text, p: rt.newP(), site: new ErrorCtor() };
    if (inflight >= rt.maxConcurrent) waiting[waiting.length] = c;
    else dispatch(c);
    return c.p;
}

/* Called by the host with the outcome of call `id`. */
rt.settle = function (id, ok, text) {
    var c = pending[id];
    if (c === void 0) return;
    delete pending[id];
    inflight--;
    var v;
    try { v = text === void 0 || text === '' ? undefined : parse(text); } catch (e) { v = void 0; ok = false; text = ''; }
    if (ok) rt.resolveP(c.p, v);
    else rt.rejectP(c.p, makeError(v || { name: 'Error', message: 'malformed reply from the host' }, callLine(c.site)));
    while (waitHead < waiting.length && inflight < rt.maxConcurrent) {
        c = waiting[waitHead];
        waiting[waitHead++] = void 0;
        dispatch(c);
    }
    if (waitHead > 0 && waitHead === waiting.length) {
        waiting = [];
        waitHead = 0;
    }
};
rt.inflight = function () { return inflight + waiting.length - waitHead; };

function toolFn(fullName) {
    var f = function (args) { return request('tool', fullName, args); };
    return f;
}

/* `tools` is built from the catalog {jsServer: {name, tools: {jsTool: originalTool}}}:
 * sanitised names enumerable, original names as non-enumerable aliases, and
 * unknown names undefined (a call of one says "did you mean": see noteMiss).
 * Calls are named "<server id>.<tool>": the id never contains a dot, so the
 * host's split at the first dot always finds the server, whatever its name.
 *
 * Both levels are proxies whose targets are filled on the first trap that
 * reaches them (parsing the catalog, then one server's functions): building
 * everything at the start cost ~20K instructions per tool on every run, most
 * of a trivial program's. This is not observable: Duktape consults a proxy's
 * target only through the traps (get, has, set, deleteProperty, ownKeys),
 * all of which fill it first; reflection that bypasses the traps
 * (getOwnPropertyDescriptor, hasOwnProperty) sees the proxy's own, always
 * empty, properties either way. (One difference: for-in over `tools` or a
 * server no longer lists enumerable properties a program added to
 * Object.prototype, as an ownKeys trap gives own keys only.) */
var ProxyCtor = Proxy, objectProto = Object.prototype, ownNames = Object.getOwnPropertyNames;
var reflectSet = Reflect.set, reflectDelete = Reflect.deleteProperty, keysOf = rt.keys;

function lazyHandler(fill, get, data, id) {
    var h = rt.create(lazyTraps);
    h.fill = fill;
    h.getMissing = get;
    h.data = data;
    h.id = id;
    return h;
}
function ready(h, t) {
    if (h.data !== null) {
        var data = h.data;
        h.data = null;
        h.fill(t, data, h.id);
    }
    return t;
}
var lazyTraps = {
    get: function (t, k) {
        if (this.data !== null) ready(this, t);
        var v = t[k]; /* own names first, without the cost of a hasOwnProperty call */
        if (v !== void 0 || typeof k !== 'string' || k === 'then' || k === 'toJSON' || k in objectProto) return v;
        return this.getMissing(k, this.id);
    },
    has: function (t, k) { return k in ready(this, t); },
    set: function (t, k, v) { return reflectSet(ready(this, t), k, v); },
    deleteProperty: function (t, k) { return reflectDelete(ready(this, t), k); },
    ownKeys: function (t) { return ownNames(ready(this, t)); }
};

/* Unknown names read as undefined, as on any object, so that
 * `typeof tools.srv.maybe === "function"` feature-tests a tool. A call of
 * one still says which tool was meant: the miss is noted (name and program
 * line), and the engine's TypeError for calling undefined, or for reading a
 * property of an unknown server, raised on that line gets the message the
 * host gives callTool for that name (errCreate below): "Unknown tool ...
 * Did you mean", or why the server's tools are not available. */
var miss = null, catalog = {};

function noteMiss(k, serverId) {
    miss = { key: k, id: serverId, line: callLine(new ErrorCtor()) };
    return void 0;
}

/* "Did you mean", as the host words it (tools/names.c, tools/catalog.c):
 * names folded (lower case; '-', '.', ' ' as '_'), optimal string alignment
 * distance within a third of the longer name, then substring hits; the
 * nearest three, ties by name. */
function fold(s) { return s.toLowerCase().replace(/[-. ]/g, '_'); }

function osa(a, b) {
    var pp = [], prev = [], cur = [], i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
        cur = [i];
        for (j = 1; j <= b.length; j++) {
            cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a.charAt(i - 1) === b.charAt(j - 1) ? 0 : 1));
            if (i > 1 && j > 1 && a.charAt(i - 1) === b.charAt(j - 2) && a.charAt(i - 2) === b.charAt(j - 1) && pp[j - 2] + 1 < cur[j])
                cur[j] = pp[j - 2] + 1;
        }
        pp = prev;
        prev = cur;
    }
    return prev[b.length];
}

function score(f, c) {
    var longer = Math.max(f.length, c.length), limit = Math.max(Math.floor(longer / 3), 1), d = osa(f, c);
    if (d <= limit) return d;
    if (Math.min(f.length, c.length) >= 3 && (c.indexOf(f) >= 0 || f.indexOf(c) >= 0)) return limit + 1 + d;
    return -1;
}

/* Indexes of up to three of cands nearest to name. */
function nearest(name, cands) {
    var f = fold(name), scored = [];
    for (var i = 0; i < cands.length; i++) {
        var sc = score(f, fold(cands[i]));
        if (sc >= 0) scored[scored.length] = { s: sc, n: cands[i], i: i };
    }
    scored.sort(function (x, y) { return x.s - y.s || (x.n < y.n ? -1 : x.n > y.n ? 1 : x.i - y.i); });
    var out = [];
    for (i = 0; i < scored.length && i < 3; i++) out[i] = scored[i].i;
    return out;
}

/* What the host answers a call of server.tool (tools/catalog.c): the
 * server's problem when it has one, else 'Unknown tool "s.t". Did you
 * mean: ...?' over the catalog this run has. */
function unknownToolMessage(server, tool) {
    var srv = rt.hasOwn(catalog, server) ? catalog[server] : null;
    if (srv && typeof srv.problem === 'string')
        return 'The tools of server "' + srv.name + '" are not available: ' + srv.problem;
    var qualified = [], bare = [], ids = keysOf(catalog);
    for (var i = 0; i < ids.length; i++) {
        var names = keysOf(catalog[ids[i]].tools || {});
        for (var j = 0; j < names.length; j++) {
            qualified[qualified.length] = ids[i] + '.' + names[j];
            bare[bare.length] = names[j];
        }
    }
    var text = 'Unknown tool "' + server + '.' + tool + '".', hits = nearest(server + '.' + tool, qualified);
    if (hits.length === 0) hits = nearest(tool, bare);
    for (i = 0; i < hits.length; i++) text += (i ? ', ' : ' Did you mean: ') + qualified[hits[i]];
    if (hits.length) text += '?';
    if (qualified.length === 0) text += ' No downstream tools are available.';
    return text;
}

var READ_OF_UNDEFINED = /^cannot read property '([^']*)' of undefined$/;

function missMessage(m, text) {
    return m.id !== void 0 ? unknownToolMessage(m.id, m.key) : unknownToolMessage(m.key, READ_OF_UNDEFINED.exec(text)[1]);
}

var TypeErrorCtor = rt.TypeError, LOGIN_NEEDED = /; run: mcp-codemode login [^ ]+$/;
Duktape.errCreate = function (e) {
    var m = miss;
    if (m === null || !(e instanceof TypeErrorCtor)) return e;
    var text = e.message;
    var match = m.id === void 0
        ? READ_OF_UNDEFINED.test(text)
        : text === "undefined not callable (property '" + m.key + "' of [object Object])";
    if (match && e.lineNumber === m.line) {
        miss = null;
        e.message = missMessage(m, text);
        /* a server that needs an OAuth login (tools/oauth/): ToolAuthError */
        if (LOGIN_NEEDED.test(e.message)) return new ToolAuthError(e.message, m.id !== void 0 ? m.id + '.' + m.key : m.key);
    }
    return e;
};

function fillServer(obj, map, serverId) {
    var names = keysOf(map);
    for (var i = 0; i < names.length; i++) {
        var js = names[i], fn = toolFn(serverId + '.' + map[js]);
        rt.defineProperty(obj, js, { value: fn, enumerable: true, writable: false, configurable: false });
        if (map[js] !== js && !rt.hasOwn(obj, map[js])) def(obj, map[js], fn);
    }
}
/* Tools the policy or the grant refuses: callable (the host's gate answers
 * with ToolPolicyError), not enumerable, left out of "did you mean". */
function fillHidden(obj, map, serverId) {
    var names = keysOf(map);
    for (var i = 0; i < names.length; i++) {
        var fn = toolFn(serverId + '.' + map[names[i]]);
        if (!rt.hasOwn(obj, names[i])) def(obj, names[i], fn);
        if (!rt.hasOwn(obj, map[names[i]])) def(obj, map[names[i]], fn);
    }
}
/* A server whose tools are not known until a login ("login" in the
 * catalog): any name is a call, which the host holds while it logs in,
 * then checks against the real list. */
function anyTool(k, serverId) { return toolFn(serverId + '.' + k); }
function serverProxy(serverId, map, hidden, login) {
    var fill = hidden ? function (obj, m, id) { fillServer(obj, m, id); fillHidden(obj, hidden, id); } : fillServer;
    return new ProxyCtor({}, lazyHandler(fill, login ? anyTool : noteMiss, map, serverId));
}

function fillRoot(root, catalogText) {
    var cat;
    try {
        cat = catalogText ? parse(catalogText) : {};
    } catch (e) {
        throw new rt.ErrorCtor('cannot install the tool catalog');
    }
    catalog = cat;
    var ids = keysOf(cat);
    for (var i = 0; i < ids.length; i++) {
        var js = ids[i], srv = serverProxy(js, cat[js].tools || {}, cat[js].hidden, cat[js].login === true);
        rt.defineProperty(root, js, { value: srv, enumerable: true, writable: false, configurable: false });
        if (cat[js].name !== js && !rt.hasOwn(root, cat[js].name)) def(root, cat[js].name, srv);
    }
}
function unknownServer(k) { return noteMiss(k, void 0); }

/* G.tools is defined once (non-enumerable, writable, configurable); each run
 * assigns it, before the program runs (cheaper than redefining it). */
def(G, 'tools', void 0);
rt.installTools = function (catalogText) {
    G.tools = new ProxyCtor({}, lazyHandler(fillRoot, unknownServer, catalogText || '', void 0));
};

def(G, 'callTool', function callTool(name, args) { return request('tool', name, args); });
def(G, 'searchTools', function searchTools(query) { return request('search', query === void 0 ? '' : query, void 0); });
def(G, 'describeTool', function describeTool(name) { return request('describe', name, void 0); });
rt.installTools('');
rt.request = request;         /* for the built-in namespaces (55_state.js) */
rt.defineError = defineError;
