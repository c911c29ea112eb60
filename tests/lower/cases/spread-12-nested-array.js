const a = [[1, 2], [3]];
[].concat(...a)
