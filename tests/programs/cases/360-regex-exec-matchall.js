// exec loops and matchAll over a log: lastIndex, zero-length matches, named groups,
// an exec the program installs (on the instance and on RegExp.prototype), early exit.
const log = 'GET /a 200 12ms\nPOST /b 500 7ms\nGET /c 404 31ms\n';
const out = {};

const re = /(\w+) (\/\w+) (\d+)/g;
const rows = [];
let m;
while ((m = re.exec(log)) !== null) rows.push([m[1], m[2], +m[3], m.index, re.lastIndex, m.input === log]);
out.rows = rows;
out.afterLoop = re.lastIndex;

re.lastIndex = 20;
out.fromMiddle = re.exec(log).index;

const named = /(?<verb>[A-Z]+) (?<path>\/\w+)/g;
out.named = [];
while ((m = named.exec(log)) !== null) out.named.push(`${m.groups.verb}:${m.groups.path}@${m.index}`);

out.all = [...log.matchAll(/(\d+)ms/g)].map((x) => [x[0], x[1], x.index]);
out.allNamed = Array.from(log.matchAll(/(?<code>[45]\d\d)/g), (x) => x.groups.code);
out.zeroLength = [...'ab'.matchAll(/x*/g)].map((x) => x.index);
out.emptyPattern = [...'abc'.matchAll(new RegExp('', 'g'))].length;

out.groupsForOf = [];
for (const x of log.matchAll(/(?<ms>\d+)ms/g)) out.groupsForOf.push(x.groups.ms + '@' + x.index);
let slow = 0;
for (const x of log.matchAll(/(\d+)ms/g)) if (+x[1] > 10) slow++;
out.slow = slow;

const it = log.matchAll(/\d+/g);
for (const x of it) { out.first = x[0]; break; }
const n1 = it.next();
out.afterBreak = [n1.done, n1.value[0]];
out.tag = Object.prototype.toString.call(it);

const own = /o/g;
const seen = [];
own.exec = function (s) { seen.push(this.lastIndex); return RegExp.prototype.exec.call(this, s); };
out.ownExec = [...'foo'.matchAll(own)].map((x) => x.index);

const saved = RegExp.prototype.exec;
let calls = 0;
RegExp.prototype.exec = function (s) { calls++; return saved.call(this, s); };
for (const x of 'a1b2'.matchAll(/\d/g)) out.patched = (out.patched || '') + x[0];
RegExp.prototype.exec = saved;
out.patchedCalls = calls;

out.execMeta = [RegExp.prototype.exec.name, RegExp.prototype.exec.length];
try { RegExp.prototype.exec.call({}, 'x'); } catch (e) { out.notRegExp = e instanceof TypeError; }
try { 'abc'.matchAll(/b/); } catch (e) { out.nonGlobal = e instanceof TypeError; }
const rest = 'q1q2q3'.matchAll(/q(\d)/g);
rest.next();
out.spreadRest = [[...rest].map((x) => x[1]), [...rest].length];
out.spreadArgs = ((...a) => a.map((x) => x.index))(...'a1a2'.matchAll(/a/g));
const d = 'x1y2'.matchAll(/\d/g);
const [p, q] = d;
out.destructured = [p[0], q[0], d.next().done];
return out;
