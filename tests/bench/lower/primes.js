const isPrime = (n, primes) => {
  for (const p of primes) {
    if (p * p > n) return true;
    if (n % p === 0) return false;
  }
  return true;
};
const primes = [];
for (let n = 2; n < 200000; n++) {
  if (isPrime(n, primes)) primes.push(n);
}
let sum = 0;
for (const p of primes) sum += p;
sum
