/* Sort benchmark (not a test): median milliseconds of sorting 10k values,
 * 11 runs each. Run it with the baseline build (Duktape's native sort) and
 * with this one (the prelude's stable merge sort) and compare. */
var RUNS = 11, N = 10000, seed = 42;
function rnd() { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; }
function median(xs) { xs.sort(function (a, b) { return a - b; }); return xs[xs.length >> 1]; }
function bench(make, cmp) {
    var times = [];
    for (var r = 0; r < RUNS; r++) {
        var a = make(), t0 = Date.now();
        if (cmp) a.sort(cmp); else a.sort();
        times.push(Date.now() - t0);
    }
    return median(times);
}
function numbers() { var a = []; for (var i = 0; i < N; i++) a.push(Math.floor(rnd() * 1e6)); return a; }
function sorted() { var a = []; for (var i = 0; i < N; i++) a.push(i); return a; }
function strings() { var a = []; for (var i = 0; i < N; i++) a.push('k' + Math.floor(rnd() * 1e6)); return a; }
function objects() { var a = []; for (var i = 0; i < N; i++) a.push({ k: Math.floor(rnd() * 100), i: i }); return a; }
function num(a, b) { return a - b; }
return {
    numbersCmp: bench(numbers, num),
    numbersDefault: bench(numbers),
    stringsDefault: bench(strings),
    objectsByKey: bench(objects, function (a, b) { return a.k - b.k; }),
    sortedCmp: bench(sorted, num),
    reversedCmp: bench(function () { return sorted().reverse(); }, num)
};
