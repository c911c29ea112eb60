// A template substitution converts with ToString (toString before valueOf), unlike `+`.
const o = { valueOf() { return 42; }, toString() { return 'str'; } };
const r = [`${o}`, `a${o}b`, '' + o, `${[1,2]}`, `${null}${undefined}${1}${2}`, `${{}}`, `${new Date(0).getTime()}`];
let err = null;
try { `${Symbol('s')}`; } catch (e) { err = e.constructor.name; }
class P { toString() { return 'P!'; } valueOf() { return 7; } }
r.push(`${new P()}`, `${new P()}${new P()}`);
const f = function () {}; f.valueOf = () => 'vo'; f.toString = () => 'ts';
r.push(`${f}`);
const a = { toString() { return "A"; } }, b = { toString() { return "B"; } };
let n = 1;
r.push(`${a}-${b}`, `${n}${a}${n + 1}${b}${[a, b]}`, `${a}${`${b}`}`, `x${n}${n}`, `${n}${n}`, `${n + a}`, `${a ?? b}${n ? a : b}${(n, b)}`);
return { r, err };
