const opts = { a: 0, b: null, c: "set", d: undefined };
opts.a ||= 10;
opts.b ??= "filled";
opts.c &&= opts.c.toUpperCase();
opts.d ??= [];
opts.d.push(1);
opts.e ||= "new";
let counter = 0;
const obj = { v: 1 };
obj.v ||= ++counter; // short-circuits: counter stays 0
const cache = {};
for (const w of ["x", "y", "x"]) (cache[w] ??= []).push(w);
return { opts, counter, cache };
