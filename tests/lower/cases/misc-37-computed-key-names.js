// functions under computed or quoted keys are named by the key; a computed key is a
// property key before its value is evaluated
const anon = Symbol(), named = Symbol('test262');
let order = [];
const key = { toString() { order.push('key'); return 'k'; } };
const o = {
  [anon]: function () {}, [named]: () => 1, ['s' + 1]: class {}, ['m' + 2]() {},
  get [named]() { return 1; },
  [key]: (order.push('value'), 1),
  ['lit']: function () {},
};
console.log(JSON.stringify(o[anon].name), o.s1.name, o.m2.name, Object.getOwnPropertyDescriptor(o, named).get.name, order.join(), o.lit.name);
const o2 = { 'a-b': function () {}, 7: () => 1, ['lit']: class {}, 'q'() {} };
console.log(o2['a-b'].name, o2[7].name, o2.lit.name, o2.q.name);
