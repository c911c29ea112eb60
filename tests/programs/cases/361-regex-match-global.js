// String.prototype.match with /g and one regexp reused by match, exec, test, replace and split:
// zero-length matches, non-ASCII text, lastIndex after each, patterns that differ only in flags.
const text = 'naïve café: 3 items, 12 €; ÅSA 7 x 100\nline two 45';
const out = {};
const num = /\d+/g;
num.lastIndex = 5;
out.nums = text.match(num);
out.lastAfterMatch = num.lastIndex;
out.words = text.match(/[a-zï]+é?/g);
out.zero = 'abc'.match(/x*/g);
out.zeroUnicode = 'é€x'.match(/(?:)/g).length;
out.none = 'abc'.match(/\d/g);
out.caseless = 'Aa aA'.match(/a/gi);
out.multiline = text.match(/^\w+/gm);
out.captures = 'k1=v1;k2=v2'.match(/(\w+)=(\w+)/g);
const m = 'k1=v1;k2=v2'.match(/(\w+)=(\w+)/);
out.nonGlobal = [m[0], m[1], m[2], m.index];
// the same pattern source with and without flags, one after the other
const a = /b+/g, b = /b+/, c = /B+/gi;
out.flags = [ 'abbcb'.match(a), 'abbcb'.match(b)[0], 'abbcb'.match(c), 'ABBCB'.match(a) ];
// one regexp through every method in turn
const re = /(\d)(\d)?/g;
const seq = [];
seq.push(JSON.stringify('a12b3c45'.match(re)));
seq.push(re.lastIndex);
seq.push(re.test('x9'), re.lastIndex);
seq.push(JSON.stringify(re.exec('x9')), re.lastIndex);
seq.push('a12b3'.replace(re, (all, p, q) => `[${p}${q === undefined ? '-' : q}]`));
seq.push(JSON.stringify('1a23b'.split(/\d/)));
seq.push(JSON.stringify('a1b22'.match(re)));
out.seq = seq;
let count = 0;
for (let i = 0; i < 50; i++) count += ('x' + i + 'y' + (i * 7)).match(/\d+/g).length;
out.count = count;
return out;
