// `in` inside a for-initialiser where the language allows it: within
// brackets, braces, arguments, function bodies and pattern defaults.
var o = { a: 1 };
var log = [];
for (var i = ["a" in o][0] ? 0 : 5; i < 2; i++) log.push("arr" + i);
for (var j = { k: "b" in o }.k ? 0 : 1; j < 2; j++) log.push("obj" + j);
for (var k = String("a" in o); log.length < 4; ) log.push("arg" + k);
for (var m = (function () { return "a" in o; })() ? 1 : 0; m > 0; m--) log.push("fn" + m);
for (let [p = "a" in o] = []; log.length < 6; ) log.push("pat" + p);
for (let { q = "z" in o } = {}; log.length < 7; ) log.push("objpat" + q);
for (var w = ("a" in o) ? 1 : 0; w > 0; w--) log.push("paren" + w);
var x;
for (x in { y: "a" in o }) log.push("forin" + x);
console.log(log.join(","));
