const text = "First line\nsecond Line\nthird LINE";
const re = /line$/gim;
const all = text.match(re);
const lastIndexes = [];
let m;
while ((m = re.exec(text)) !== null) lastIndexes.push(re.lastIndex);
const dotAll = /First.*third/s.test(text);
const noDotAll = /First.*third/.test(text);
const splitKeep = "a1b2c3".split(/(\d)/);
const src = /a\/b[c-e]+/gi;
return {
  all, lastIndexes, dotAll, noDotAll, splitKeep,
  source: src.source, flags: src.flags, global: src.global,
  search: "hello world".search(/o w/),
  replaceDollar: "john smith".replace(/(\w+)\s(\w+)/, "$2, $1"),
  escaped: "1+1=2?".replace(/[+?=]/g, (c) => `\\${c}`),
  nonGreedy: "<a><b>".match(/<.+?>/)[0],
  backref: /(\w)\1/.test("hello"),
};
