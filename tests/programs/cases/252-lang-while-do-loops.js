let n = 27, steps = 0;
while (n !== 1) {
  n = n % 2 ? 3 * n + 1 : n / 2;
  steps++;
}
let digits = 0, x = 123456;
do {
  digits++;
  x = Math.floor(x / 10);
} while (x > 0);
const primes = [];
for (let i = 2; primes.length < 10; i++) {
  let isPrime = true;
  for (let j = 2; j * j <= i; j++) if (i % j === 0) { isPrime = false; break; }
  if (isPrime) primes.push(i);
}
let gcd = (a, b) => { while (b) [a, b] = [b, a % b]; return a; };
return { collatzSteps: steps, digits, primes, gcd: gcd(462, 1071) };
