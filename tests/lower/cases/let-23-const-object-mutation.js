const o = { a: 1 };
o.a = 2; o.b = 3;
o
