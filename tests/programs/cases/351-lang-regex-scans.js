// Regular expressions whose search the engine shortens (a first character,
// a leading greedy run, the character after a greedy run, test without a
// match array), on ASCII and non-ASCII text, with the offsets they report.
const log = 'alpha user12@example.com id=42 x@y.com BETA ab@cd.org id=7 took 901ms';
const wide = 'é user7@exämple.com ü ab@cd.com id=3 ½ id=55 — caf@é.com';
const out = {};
out.emails = log.match(/[a-z0-9]+@[a-z]+\.com/g);
out.emailsWide = wide.match(/[a-z0-9]+@[a-z]+\.com/g);
out.nonAsciiRun = 'ééé@x ab@x'.match(/[^ ]+@x/g);
const ids = [];
const re = /id=(\d+)/g;
let m;
while ((m = re.exec(wide)) !== null) ids.push([m[1], m.index, re.lastIndex]);
out.ids = ids;
out.lazyRun = 'aaab aab ab'.match(/a*?b/g);
out.optionalRun = 'xxxy xy y zzz'.match(/x*y/g);
out.boundedRun = 'aaaab aab aaaaaab'.match(/a{2,3}b/g);
out.minRun = 'ab aab aaab'.match(/a{2,}b/g);
out.backref = 'aa-aaaa-aaa'.match(/(a+)-\1/g);
out.lookahead = 'abc123def45'.match(/(?=\d)\d+/g);
out.boundary = ['ERROR here', 'xERRORx', 'an ERROR.', 'error'].map((l) => /\bERROR\b/.test(l));
out.anchored = 'foo\nfoo bar\nbarfoo'.match(/^foo\w*/gm);
out.endOnly = 'abc'.replace(/$/g, '!');
out.empty = 'abc'.split(/(?:)/);
out.ignoreCase = 'ABC@X.COM def@y.com'.match(/[a-z]+@[a-z]+\.com/gi);
out.dotRun = 'a\nbc\r\ndef'.match(/.+/g);
out.classUpper = 'x1 É2 ÿ3 Z4'.match(/[^a-z ]\d/g);
const g = /o/g;
out.testGlobal = [g.test('foo'), g.lastIndex, g.test('foo'), g.lastIndex, g.test('foo'), g.lastIndex];
const gw = /ü/g;
out.testWide = [gw.test('aüb ü'), gw.lastIndex, gw.test('aüb ü'), gw.lastIndex];
out.replaced = wide.replace(/user(\d+)@/g, (_, d, i) => `u${d.length}@${i}`);
out.matchAll = [...'took 5ms, took 812ms; took 77ms'.matchAll(/took (\d+)ms/g)].map((x) => [x[1], x.index]);
out.noMatch = ['abc'.match(/[0-9]+x/g), /q/.exec('abc'), /q/.test('')];
out.tailRun = 'abc def'.search(/[a-z]+$/);
return out;
