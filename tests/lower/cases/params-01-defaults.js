let calls = 0;
function f(a, b = (calls++, a + 1), c = b * 2) { return [a, b, c]; }
[f(1), f(1, 10), f(1, undefined, 0), calls]
