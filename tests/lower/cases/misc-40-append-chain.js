// `x = x + a + b` statements (appended in place when x is a string): the
// same values, conversions, calls and errors as Node in every position.
const log = [];
const o = (n) => ({ valueOf() { log.push('v' + n); return n; }, toString() { log.push('s' + n); return 'S' + n; } });
let calls = 0;
const f = (v) => { calls++; return v; };
let s = 'a', n = 1, u, arr = [1], obj = { get g() { log.push('get'); return 'G'; } };
s = s + 1 + 2;
n = n + 2 + 'x';
u = u + 'p' + 'q';
arr = arr + 2 + 3;
s = s + o(1) + o(2);
n = 5; n = n + o(3) + o(4);
s = s + f('c') + f(`d${n}`) + obj.g;
s = s + s + s.length;
if (calls > 100) s = s + 'never' + 'x'; else s = s + 'else' + '!';
if (calls) if (false) s = s + 'no' + 'no'; else s = s + 'in' + 'ner'; else s = s + 'outer' + 'no';
let k = 0;
do s = s + k + ','; while (++k < 3);
lbl: for (let i = 0; i < 2; i++) { s = s + i + '|' + i; continue lbl; }
let t = '';
for (let i = 0; i < 3; i = i + 1 + 0) t = t + i + ';';
let err = null;
try { s = s + 'x' + undefinedName; } catch (e) { err = e.name; }
const sym = Symbol('q');
let e2 = null;
try { s = s + '' + sym; } catch (e) { e2 = e.name; }
let big = '';
for (let i = 0; i < 20000; i++) big = big + 'row ' + i + '\n';
const g = () => (t = t + 'arrow' + '!');
g();
let last = 'z';
last = last + 1 + 2;
[s, n, u, arr, log.join(','), calls, t, err, e2, big.length, big.slice(-9), last]
