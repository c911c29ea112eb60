let s = 0;
for (const x of [1, 2, 3]) s += x;
s
