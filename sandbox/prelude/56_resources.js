/* The downstream servers' resources and prompts, when one offers them
 * (docs/javascript.md): resources.list/templates/read and prompts.list/get.
 * Every operation is one host call (op "resources" or "prompts"); the host
 * checks the arguments, picks the server (for resources.read without one:
 * the server whose tool returned the uri in this run), applies the policy
 * and sends the request. */
var def = rt.def, request = rt.request, parse = rt.parse, isArray = rt.isArray;

function option(options, key) {
    return options !== void 0 && options !== null && typeof options === 'object' ? options[key] : void 0;
}
/* {server, cursor?}: without a cursor the host gathers every page. */
function listArgs(server, options) {
    var a = { server: server }, cursor = option(options, 'cursor');
    if (cursor !== void 0) a.cursor = cursor;
    return a;
}

var RESOURCES = {}, PROMPTS = {};
def(RESOURCES, 'list', function list(server, options) {
    return request('resources', 'list', listArgs(server, options));
});
def(RESOURCES, 'templates', function templates(server, options) {
    return request('resources', 'templates', listArgs(server, options));
});
/* uri: a string, or a resource_link (or any object with a uri) from a tool's result. */
def(RESOURCES, 'read', function read(uri, options) {
    var a = { uri: uri !== null && typeof uri === 'object' && !isArray(uri) ? uri.uri : uri };
    var server = option(options, 'server');
    if (server !== void 0) a.server = server;
    return request('resources', 'read', a);
});
def(PROMPTS, 'list', function list(server, options) {
    return request('prompts', 'list', listArgs(server, options));
});
def(PROMPTS, 'get', function get(server, name, args) {
    var a = { server: server, name: name };
    if (args !== void 0 && args !== null) a.arguments = args;
    return request('prompts', 'get', a);
});

/* The host's run message says which are on: {"resources":bool,"prompts":bool,...}. */
var installState = rt.installBuiltins;
rt.installBuiltins = function (text) {
    installState(text);
    var cfg = parse(text);
    if (cfg.resources) def(G, 'resources', RESOURCES);
    if (cfg.prompts) def(G, 'prompts', PROMPTS);
};
