// Borrowing methods, call/apply/bind.
const arrayLike = { 0: "a", 1: "b", 2: "c", length: 3 };
const joined = Array.prototype.join.call(arrayLike, "+");
const mapped = Array.prototype.map.call("abc", (c) => c.charCodeAt(0));
const max = Math.max.apply(null, [3, 9, 4]);
function greet(greeting, punct) { return `${greeting}, ${this.name}${punct}`; }
const bound = greet.bind({ name: "Ada" }, "Hello");
const called = greet.call({ name: "Bo" }, "Hi", "?");
const applied = greet.apply({ name: "Cy" }, ["Yo", "."]);
function variadic() { return Array.from(arguments).reverse(); }
return { joined, mapped, max, bound: bound("!"), called, applied, variadic: variadic(1, 2, 3), len: greet.length };
