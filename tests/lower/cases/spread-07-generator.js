function* g() { yield 1; yield 2; }
Math.max(...g(), 0)
