// A program that replaces String.prototype[Symbol.iterator] gets its
// replacement called by for-of, spread, destructuring, Array.from and
// new Set; putting the built-in back restores code-point iteration.
const original = String.prototype[Symbol.iterator];
const calls = [];
String.prototype[Symbol.iterator] = function* () {
    calls.push(typeof this);
    for (let i = 0; i < this.length; i++) yield this[i].toUpperCase() + i;
};
const seen = [];
for (const ch of 'ab') seen.push(ch);
const spread = [...'cd'];
const [first, ...rest] = 'efg';
const from = Array.from('hi');
const set = [...new Set('jk')];
String.prototype[Symbol.iterator] = original;
const back = [];
for (const ch of 'a😀') back.push(ch);
[seen, spread, first, rest, from, set, back, [...'x😀'], calls.length]
