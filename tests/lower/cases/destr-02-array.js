const [x, , y = 10, ...zs] = [1, 2, undefined, 4, 5];
[x, y, zs]
