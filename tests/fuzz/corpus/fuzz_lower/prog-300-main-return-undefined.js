// No return and no final expression: the result is absent, the program succeeds.
const total = [1, 2, 3].reduce((a, b) => a + b, 0);
console.log(`total ${total}`);
if (total > 100) {
  console.log("big");
}
