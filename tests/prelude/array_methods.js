/* Array.prototype additions: find*, includes, at, flat, flatMap, fill,
 * copyWithin, toSorted, toReversed, toSpliced, with. */
var people = [{ n: 'a', age: 30 }, { n: 'b', age: 20 }, { n: 'c', age: 30 }];

t('find', function () { return [people.find(function (p) { return p.age === 30; }).n, [1, 2].find(function (x) { return x > 5; })]; });
t('findIndex', function () { return [people.findIndex(function (p) { return p.age === 30; }), [].findIndex(function () { return true; })]; });
t('findLast', function () { return [people.findLast(function (p) { return p.age === 30; }).n, [1].findLast(function () { return false; })]; });
t('findLastIndex', function () { return [people.findLastIndex(function (p) { return p.age === 30; }), [1, 2].findLastIndex(function (x) { return x > 5; })]; });
t('findVisitsHoles', function () {
    var seen = [];
    [1, , 3].find(function (x, i) { seen.push([i, x]); return false; });
    return seen;
});
t('findArgsAndThis', function () {
    var got;
    ['q'].find(function (v, i, arr) { got = [v, i, arr.length, this.k]; return true; }, { k: 'this' });
    return got;
});
t('findNotCallable', function () { return [1].find(); });
t('findOnArrayLike', function () { return Array.prototype.find.call({ length: 2, 0: 'x', 1: 'y' }, function (v) { return v === 'y'; }); });
t('findLengthFixedAtStart', function () {
    var a = [1, 2], seen = [];
    a.find(function (x) { seen.push(x); if (a.length < 4) a.push(x * 10); return false; });
    return [seen, a];
});
t('includesBasic', function () { return [[1, 2, 3].includes(2), [1, 2, 3].includes(4), ['a'].includes('a'), [1].includes('1')]; });
t('includesNaN', function () { return [[NaN].includes(NaN), [NaN].indexOf(NaN)]; });
t('includesZeros', function () { return [[-0].includes(0), [0].includes(-0)]; });
t('includesHoles', function () { return [[, 1].includes(undefined), [, 1].indexOf(undefined), [1, 2].includes(undefined)]; });
t('includesFromIndex', function () {
    var a = [1, 2, 3];
    return [a.includes(1, 1), a.includes(3, -1), a.includes(1, -10), a.includes(3, 3), a.includes(3, 2.5), a.includes(1, -Infinity)];
});
t('includesArrayLikeAndString', function () {
    return [Array.prototype.includes.call({ length: 2, 1: NaN }, NaN), Array.prototype.includes.call('abc', 'b')];
});
t('includesObjects', function () { var o = {}; return [[o].includes(o), [{}].includes({})]; });
t('at', function () {
    var a = [1, 2, 3];
    return [a.at(0), a.at(-1), a.at(3), a.at(-4), a.at('1'), a.at(1.9), a.at(), a.at(NaN), a.at(-0.5)];
});
t('atArrayLike', function () { return Array.prototype.at.call({ length: 2, 0: 'a', 1: 'b' }, -1); });
t('flatDefault', function () { return [1, [2, [3, [4]]]].flat(); });
t('flatDepth', function () { return [[1, [2, [3, [4]]]].flat(2), [1, [2]].flat(0), [1, [2]].flat(-1)]; });
t('flatInfinity', function () { return [1, [2, [3, [4, [5, [6]]]]]].flat(Infinity); });
t('flatHoles', function () { return [1, , [2, , 3]].flat(); });
t('flatArrayLikeNotFlattened', function () { return [{ length: 1, 0: 'x' }, 'str', [['deep']]].flat(); });
t('flatDepthCoercion', function () { return [[1, [2, [3]]].flat('2'), [1, [2]].flat(NaN), [1, [2, [3]]].flat(1.9)]; });
t('flatMap', function () {
    return [[1, 2].flatMap(function (x) { return [x, x * 2]; }), ['a b', 'c'].flatMap(function (s) { return s.split(' '); })];
});
t('flatMapOnlyOneLevel', function () { return [1].flatMap(function (x) { return [[x]]; }); });
t('flatMapNonArrays', function () { return [1, 2].flatMap(function (x) { return x % 2 ? x : []; }); });
t('flatMapArgs', function () {
    var seen = [];
    ['a', , 'b'].flatMap(function (v, i, arr) { seen.push(v, i, arr.length, this.t); return []; }, { t: 1 });
    return seen;
});
t('flatMapNotCallable', function () { return [1].flatMap(3); });
t('fill', function () {
    return [[1, 2, 3].fill(0), [1, 2, 3].fill(9, 1), [1, 2, 3].fill(9, -1), [1, 2, 3, 4].fill(9, 1, 3),
            [1, 2, 3].fill(9, 5), [1, 2, 3].fill(9, 1, -1), new Array(3).fill('x')];
});
t('fillArrayLike', function () { var o = { length: 2 }; Array.prototype.fill.call(o, 'z'); return o; });
t('fillFrozen', function () { return Object.freeze([1]).fill(0); });
t('copyWithin', function () {
    return [[1, 2, 3, 4, 5].copyWithin(0, 3), [1, 2, 3, 4, 5].copyWithin(0, 3, 4), [1, 2, 3, 4, 5].copyWithin(-2),
            [1, 2, 3, 4, 5].copyWithin(-2, -3, -1), [1, 2, 3, 4, 5].copyWithin(1, 0), [1, 2, 3, 4, 5].copyWithin(0, 1)];
});
t('copyWithinHoles', function () { return [1, , 3, 4].copyWithin(2, 0); });
t('copyWithinArrayLike', function () {
    return Array.prototype.copyWithin.call({ length: 5, 3: 1 }, 0, 3);
});
t('toSorted', function () {
    var a = [3, 1, 2], b = a.toSorted();
    return [a, b, a !== b, [10, 9, 1].toSorted(), [3, 1].toSorted(function (x, y) { return y - x; })];
});
t('toSortedHolesAndUndefined', function () { return [3, , undefined, 1].toSorted(); });
t('toSortedBadComparator', function () { return [1].toSorted('x'); });
t('toReversed', function () { var a = [1, 2, 3]; return [a.toReversed(), a, [1, , 3].toReversed()]; });
t('toReversedArrayLike', function () { return Array.prototype.toReversed.call({ length: 2, 0: 'a', 1: 'b' }); });
t('toSpliced', function () {
    var a = [1, 2, 3, 4];
    return [a.toSpliced(1, 2), a.toSpliced(1, 0, 'x', 'y'), a.toSpliced(-1), a.toSpliced(), a.toSpliced(2),
            a.toSpliced(1, 1, 'z'), a.toSpliced(10, 1, 'end'), a.toSpliced(0, -5, 'neg'), a];
});
t('toSplicedHoles', function () { return [1, , 3].toSpliced(0, 1); });
t('with', function () { var a = [1, 2, 3]; return [a['with'](0, 'x'), a['with'](-1, 'y'), a, [1, , 3]['with'](0, 0)]; });
t('withOutOfRange', function () { return [1, 2]['with'](2, 0); });
t('withNegativeOutOfRange', function () { return [1, 2]['with'](-3, 0); });
t('methodsAreNonEnumerable', function () {
    var found = [];
    for (var k in []) found.push(k);
    return [found, Object.keys(Array.prototype).length];
});
t('names', function () {
    return [[].flatMap.name, [].findLastIndex.name, [].includes.length, [].at.name, [].toSpliced.name];
});
t('nullThis', function () { return Array.prototype.includes.call(null, 1); });
return __out;
