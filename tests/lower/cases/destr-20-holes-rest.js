const [, , third, ...rest] = [1, 2, 3, 4, 5, 6];
[third, rest]
