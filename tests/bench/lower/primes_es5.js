function isPrime(n, primes) {
  for (var i = 0; i < primes.length; i++) {
    var p = primes[i];
    if (p * p > n) return true;
    if (n % p === 0) return false;
  }
  return true;
}
var primes = [];
for (var n = 2; n < 200000; n++) {
  if (isPrime(n, primes)) primes.push(n);
}
var sum = 0;
for (var j = 0; j < primes.length; j++) sum += primes[j];
return sum;
