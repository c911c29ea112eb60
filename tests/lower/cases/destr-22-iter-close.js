// Array destructuring reads an iterator lazily, as the targets are assigned,
// and closes it (return()) when it is left open or a target throws.
const log = [];
function iter(n, name) {
  let i = 0;
  return {
    [Symbol.iterator]() { log.push(name + ':iter'); return this; },
    next() { log.push(name + ':next'); return i < n ? { value: ++i, done: false } : { value: undefined, done: true }; },
    return() { log.push(name + ':return'); return {}; },
  };
}
const [a, b] = iter(5, 'A');
log.push(`a=${a} b=${b}`);
const [c, d, e] = iter(2, 'B');
log.push(`c=${c} d=${d} e=${e}`);
let x, y;
[x, , y] = iter(9, 'C');
log.push(`x=${x} y=${y}`);
const [f, ...rest] = iter(3, 'D');
log.push(`f=${f} rest=${rest}`);
const target = { set p(v) { log.push('set ' + v); throw new Error('setter'); } };
try { [target.p] = iter(4, 'E'); } catch (err) { log.push('caught ' + err.message); }
try { const [g = (() => { throw new Error('default'); })()] = iter(0, 'F'); } catch (err) { log.push('caught ' + err.message); }
const obj = {};
[obj[(log.push('key'), 'k')]] = iter(1, 'G');
log.push('obj.k=' + obj.k);
for (const [k, v] of [iter(3, 'H'), iter(1, 'I')]) log.push(`k=${k} v=${v}`);
function params([p, q = 7]) { return p + q; }
log.push('params=' + params(iter(1, 'J')));
function* gen() { try { yield 1; yield 2; yield 3; } finally { log.push('gen closed'); } }
const [h] = gen();
log.push('h=' + h);
const [i0, j0] = [10, 20];
log.push(`${i0} ${j0}`);
return log;
