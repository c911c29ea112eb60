const g = function* (n) { while (n > 0) yield n--; };
[...g(3)]
