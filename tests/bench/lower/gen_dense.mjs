// Writes dense.js (the deliberately dense ~200-line program of the lowering
// benchmark: 195 modern one-liners of ten kinds) and dense_es5.js (the same
// program written by hand in ES5, its baseline). Run: node gen_dense.mjs
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const modern = [
  "const f@ = (x, { k = @ } = {}) => x?.v ?? k + users.length;",
  "let s@ = 0; for (const u of users) { if (u.age > @) s@ += u.id; }",
  "const names@ = users.map(u => `${u.name}:@`).join(',');",
  "const o@ = { id: @, ...users[0], tags: [...users[1].tags, 'x'] };",
  "function g@(a, b = @) { return a > b ? a - b : b - a; }",
  "if (users.length > @) { const [first, ...others] = users; console.log(first.name, others.length); }",
  "const m@ = users.slice(0, 3 + @ % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});",
  "class C@ { constructor(v) { this.v = v ?? @; } get double() { return this.v * 2; } }",
  "const r@ = await Promise.resolve(@).then(v => v + 1);",
  "try { JSON.parse('{\"a\":@}'); } catch { console.log('bad @'); }",
];
const es5 = [
  "var f@ = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = @; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };",
  "var s@ = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > @) s@ += u.id; }",
  "var names@ = users.map(function (u) { return u.name + ':@'; }).join(',');",
  "var o@ = Object.assign({ id: @ }, users[0], { tags: users[1].tags.concat(['x']) });",
  "function g@(a, b) { if (b === undefined) b = @; return a > b ? a - b : b - a; }",
  "if (users.length > @) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }",
  "var m@ = users.slice(0, 3 + @ % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});",
  "function C@(v) { this.v = v != null ? v : @; } Object.defineProperty(C@.prototype, 'double', { get: function () { return this.v * 2; } });",
  "var r@ = __await(Promise.resolve(@).then(function (v) { return v + 1; }));",
  "try { JSON.parse('{\"a\":@}'); } catch (e) { console.log('bad @'); }",
];
const head = {
  modern: "const users = [];\nfor (let i = 0; i < 50; i++) users.push({ id: i, name: `user${i}`, age: 20 + (i % 30), tags: i % 3 ? ['a'] : ['a', 'b'] });\n",
  es5: "var users = [];\nfor (var i = 0; i < 50; i++) users.push({ id: i, name: 'user' + i, age: 20 + (i % 30), tags: i % 3 ? ['a'] : ['a', 'b'] });\n",
};
const tail = {
  modern:
    "const adults = users.filter(({ age }) => age >= 30);\n" +
    "const byTag = {};\n" +
    "for (const { tags, name } of users) for (const t of tags) (byTag[t] ??= []).push(name);\n" +
    "({ adults: adults.length, a: byTag.a.length, b: byTag.b?.length ?? 0 })\n",
  es5:
    "var adults = users.filter(function (u) { return u.age >= 30; });\n" +
    "var byTag = {};\n" +
    "for (var j = 0; j < users.length; j++) { var tags = users[j].tags, name = users[j].name; for (var k = 0; k < tags.length; k++) { var t = tags[k]; (byTag[t] || (byTag[t] = [])).push(name); } }\n" +
    "return { adults: adults.length, a: byTag.a.length, b: byTag.b ? byTag.b.length : 0 };\n",
};

function program(kind, lines) {
  let body = "";
  for (let i = 0; i < 195; i++) body += lines[i % 10].replaceAll("@", String(i)) + "\n";
  return head[kind] + body + tail[kind];
}

const dir = dirname(fileURLToPath(import.meta.url));
writeFileSync(join(dir, "dense.js"), program("modern", modern));
writeFileSync(join(dir, "dense_es5.js"), program("es5", es5));
