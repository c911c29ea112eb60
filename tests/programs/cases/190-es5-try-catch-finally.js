var steps = [];
function risky(n) {
  if (n > 2) throw new RangeError('too big: ' + n);
  return n * 10;
}
for (var i = 1; i <= 4; i++) {
  try {
    steps.push(risky(i));
  } catch (e) {
    steps.push(e.name + '/' + e.message);
  } finally {
    steps.push('f' + i);
  }
}
function early() {
  try { return 'try'; } finally { steps.push('cleanup'); }
}
var r = early();
console.log(steps.join(' '));
var custom;
try { null.x; } catch (e) { custom = e instanceof TypeError; }
return { r: r, steps: steps.length, typeError: custom };
