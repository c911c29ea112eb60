const café = 'c', \u0061bc = 'abc', π = 3.14;
[café, abc, π]
