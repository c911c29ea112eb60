/* console formatting of Map and Set (40_console.js asks rt.formatSpecial):
 *   Map(2) {"a" => 1, "b" => {"x":1}}   Set(1) {1}
 * Strings quoted as JSON, other values as console prints them; nested maps
 * and sets the same way, "[Circular]" for a cycle, at most 100 entries. */
'use strict';
var stringify = rt.stringify, join = Array.prototype.join, inProgress = [];
var MAX_ENTRIES = 100;

function item(v) { return typeof v === 'string' ? stringify(v) : rt.formatValue(v); }

function formatCollection(x, type) {
    var e = rt.collectionEntries(x), n = e.length / 2, parts = [];
    for (var i = 0; i < n && i < MAX_ENTRIES; i++)
        parts[i] = type === 'Map' ? item(e[2 * i]) + ' => ' + item(e[2 * i + 1]) : item(e[2 * i]);
    if (n > MAX_ENTRIES) parts[parts.length] = '... ' + (n - MAX_ENTRIES) + ' more items';
    return type + '(' + n + ') {' + rt.apply(join, parts, [', ']) + '}';
}

rt.formatSpecial = function (x) {
    var type = rt.collectionType(x);
    if (type === null) return void 0;
    for (var i = 0; i < inProgress.length; i++) if (inProgress[i] === x) return '[Circular]';
    inProgress[inProgress.length] = x;
    try { return formatCollection(x, type); } finally { inProgress.length--; }
};
