var out = [];
let a = 'outer';
function f() { { let a = 'inner'; out.push(a); } out.push(a); }
f();
out.join(',')
