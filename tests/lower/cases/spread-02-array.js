const a = [1, 2];
[...a, 3, ...'ab', ...new Map([['k', 'v']])]
