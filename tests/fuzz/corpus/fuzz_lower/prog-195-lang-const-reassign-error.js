const limit = 10;
let message;
try {
  limit = 11;
} catch (e) {
  message = e.name;
}
const obj = Object.freeze({ n: 1 });
const arr = [1, 2];
arr.push(3); // const binding, mutable value
return { message, limit, arr, frozen: Object.isFrozen(obj) };
