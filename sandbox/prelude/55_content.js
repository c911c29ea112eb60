/* Binary data and content for programs: atob/btoa, Uint8Array.fromBase64
 * and Uint8Array.prototype.toBase64 (natives in sandbox/worker/base64.c), and the
 * `content` constructors. Content objects are plain MCP content blocks
 * ({type: "image", data, mimeType}, ...): the host turns a returned block,
 * or an array of blocks, into the CallToolResult's content. */
var def = rt.def, host = rt.host, Str = rt.String, TypeErr = rt.TypeError, isArray = rt.isArray;
var hostAtob = host.atob, hostBtoa = host.btoa, fromB64 = host.fromBase64, toB64 = host.toBase64;

def(G, 'atob', function atob(s) {
    if (arguments.length === 0) throw new TypeErr('atob: 1 argument required');
    return hostAtob(Str(s));
});
def(G, 'btoa', function btoa(s) {
    if (arguments.length === 0) throw new TypeErr('btoa: 1 argument required');
    return hostBtoa(Str(s));
});
def(Uint8Array, 'fromBase64', function fromBase64(s) {
    if (typeof s !== 'string') throw new TypeErr('Uint8Array.fromBase64: expected a string');
    return fromB64(s);
});
def(Uint8Array.prototype, 'toBase64', function toBase64() {
    if (!(this instanceof Uint8Array)) throw new TypeErr('toBase64: not a Uint8Array');
    return toB64(this);
});

/* base64 text from a string or the bytes of a Uint8Array / ArrayBuffer. */
function base64Of(what, data) {
    if (typeof data === 'string') return data;
    if (data instanceof Uint8Array || data instanceof ArrayBuffer) return toB64(data);
    throw new TypeErr(what + ': data must be a base64 string or a Uint8Array');
}
function needString(what, name, v) {
    if (typeof v !== 'string' || v === '') throw new TypeErr(what + ': ' + name + ' must be a non-empty string');
    return v;
}

var content = {};
def(content, 'text', function text(s) {
    return { type: 'text', text: typeof s === 'string' ? s : Str(s) };
});
def(content, 'image', function image(data, mimeType) {
    return { type: 'image', data: base64Of('content.image', data), mimeType: needString('content.image', 'mimeType', mimeType) };
});
def(content, 'audio', function audio(data, mimeType) {
    return { type: 'audio', data: base64Of('content.audio', data), mimeType: needString('content.audio', 'mimeType', mimeType) };
});
def(content, 'resource', function resource(r) {
    if (r === null || typeof r !== 'object' || isArray(r)) throw new TypeErr('content.resource: expected {uri, mimeType, text | blob}');
    var out = { uri: needString('content.resource', 'uri', r.uri) };
    if (r.mimeType !== void 0) out.mimeType = needString('content.resource', 'mimeType', r.mimeType);
    if ((r.text === void 0) === (r.blob === void 0)) throw new TypeErr('content.resource: give exactly one of text and blob');
    if (r.text !== void 0) {
        if (typeof r.text !== 'string') throw new TypeErr('content.resource: text must be a string');
        out.text = r.text;
    } else out.blob = base64Of('content.resource', r.blob);
    return { type: 'resource', resource: out };
});
/* Keeps value on the host as a codemode://stash/ resource of this client and
 * resolves to a resource_link block naming it. The promise is marked: a
 * program may return it inside an array without awaiting it (90_main.js). */
def(content, 'stash', function stash(value) {
    if (value === void 0) throw new TypeErr('content.stash: a value is required');
    var p = rt.request('stash', '', value);
    p[rt.HIDDEN].stash = true;
    return p;
});
def(G, 'content', content);
