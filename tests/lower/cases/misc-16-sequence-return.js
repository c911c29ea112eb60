const a = [1, 2, 3];
a.filter(x => x > 1).map(x => x * x)
