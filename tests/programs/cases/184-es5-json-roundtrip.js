var order = { id: 'A-17', items: [{ sku: 'x', qty: 2, price: 3.5 }, { sku: 'y', qty: 1, price: 10 }], note: null };
var text = JSON.stringify(order);
console.log(text);
var copy = JSON.parse(text, function (k, v) { return k === 'price' ? Math.round(v * 100) : v; });
console.log(JSON.stringify(copy.items, ['sku', 'price']));
console.log(JSON.stringify({ a: [1, { b: 2 }] }, null, 2));
var total = 0;
for (var i = 0; i < copy.items.length; i++) total += copy.items[i].qty * copy.items[i].price;
return { totalCents: total, keys: Object.keys(copy), undef: JSON.stringify({ u: undefined, f: function () {} }) };
