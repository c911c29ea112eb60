// an arrow has no own caller/arguments; reading or writing them throws a TypeError
const f = () => 1;
const out = [f.hasOwnProperty('caller'), f.hasOwnProperty('arguments')];
for (const act of [() => f.caller, () => { f.caller = {}; }, () => f.arguments, () => { f.arguments = {}; }]) {
  try { act(); out.push('no error'); } catch (e) { out.push(e.name); }
}
const d = Object.getOwnPropertyDescriptor(Function.prototype, 'caller');
out.push(typeof d.get, d.get === d.set, d.get === Object.getOwnPropertyDescriptor(Function.prototype, 'arguments').get);
out
