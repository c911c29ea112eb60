var memo = {};
function fib(n) {
  if (n < 2) return n;
  if (memo[n]) return memo[n];
  return (memo[n] = fib(n - 1) + fib(n - 2));
}
function permutations(arr) {
  if (arr.length <= 1) return [arr];
  var out = [];
  for (var i = 0; i < arr.length; i++) {
    var rest = arr.slice(0, i).concat(arr.slice(i + 1));
    var ps = permutations(rest);
    for (var j = 0; j < ps.length; j++) out.push([arr[i]].concat(ps[j]));
  }
  return out;
}
console.log('fib(50) =', fib(50));
var perms = permutations(['a', 'b', 'c']);
return { fib30: fib(30), count: perms.length, perms: perms.map(function (p) { return p.join(''); }) };
