const a = [...[1, , 3]];
[a.length, 1 in a, a[1]]
