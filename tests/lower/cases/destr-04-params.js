function f({ a, b = 2 } = {}, [c, d] = [3, 4]) { return [a, b, c, d]; }
[f(), f({ a: 1 }, [5])]
