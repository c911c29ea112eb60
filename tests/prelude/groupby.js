/* Object.groupBy and Map.groupBy (ES2024). */
var inventory = [
    { name: 'asparagus', type: 'vegetables', quantity: 5 },
    { name: 'bananas', type: 'fruit', quantity: 0 },
    { name: 'goat', type: 'meat', quantity: 23 },
    { name: 'cherries', type: 'fruit', quantity: 5 },
    { name: 'fish', type: 'meat', quantity: 22 }
];
function names(list) { return list.map(function (x) { return x.name; }); }

t('objectGroupBy', function () {
    var g = Object.groupBy(inventory, function (x) { return x.type; });
    return [Object.keys(g), names(g.fruit), names(g.meat), Object.getPrototypeOf(g)];
});
t('objectGroupByIndexAndCoercion', function () {
    var g = Object.groupBy(['a', 'b', 'c', 'd'], function (x, i) { return i % 2; });
    return [Object.keys(g), g[0], g[1]];
});
t('objectGroupByProtoKey', function () {
    var g = Object.groupBy([1, 2], function () { return '__proto__'; });
    return [Object.keys(g), g.__proto__];
});
t('objectGroupByIterable', function () {
    var g = Object.groupBy(new Set([1, 2, 3, 4]), function (x) { return x > 2 ? 'big' : 'small'; });
    return [g.big, g.small];
});
t('objectGroupByString', function () { return Object.groupBy('abca', function (c) { return c; }); });
t('mapGroupBy', function () {
    var restock = { restock: true }, sufficient = { restock: false };
    var m = Map.groupBy(inventory, function (x) { return x.quantity < 6 ? restock : sufficient; });
    return [m instanceof Map, m.size, names(m.get(restock)), names(m.get(sufficient))];
});
t('mapGroupByZeroKeys', function () {
    var m = Map.groupBy([1, 2, 3], function (x) { return x === 1 ? -0 : x === 2 ? 0 : NaN; });
    var keys = Array.from(m.keys());
    return [m.size, 1 / keys[0], m.get(0), m.get(NaN)];
});
t('groupByNotCallable', function () { return Object.groupBy([1], 'x'); });
t('mapGroupByNotIterable', function () { return Map.groupBy(5, function () { return 1; }); });
t('groupByEmpty', function () { return [Object.keys(Object.groupBy([], function () { return 1; })), Map.groupBy([], function () {}).size]; });
return __out;
