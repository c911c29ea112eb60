let p = 1, q = 2;
[p, q] = [q, p];
[p, q]
