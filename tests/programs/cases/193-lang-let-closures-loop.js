// let in a for loop gives each iteration its own binding.
const fns = [];
for (let i = 0; i < 4; i++) fns.push(() => i * 10);
const viaVar = [];
for (var j = 0; j < 3; j++) viaVar.push(() => j);
const fromForOf = [];
for (const name of ["a", "b", "c"]) fromForOf.push(() => name.toUpperCase());
const inForIn = [];
for (const k in { x: 1, y: 2 }) inForIn.push(() => k);
return {
  let: fns.map((f) => f()),
  var: viaVar.map((f) => f()),
  forOf: fromForOf.map((f) => f()),
  forIn: inForIn.map((f) => f()),
};
