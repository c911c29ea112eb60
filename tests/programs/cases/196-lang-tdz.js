// Reading a let binding before its declaration throws a ReferenceError.
let caught = null;
try {
  console.log(value);
  let value = 5;
} catch (e) {
  caught = e.name;
}
function later() { return laterValue * 2; }
const laterValue = 21;
return { caught, later: later() };
