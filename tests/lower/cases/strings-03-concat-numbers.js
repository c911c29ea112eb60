// Concatenation of strings with numbers (0024 writes integers' digits itself) gives Node's strings
const out = [];
const nums = [0, -0, 1, -1, 7, 10, -10, 123456789, -987654321, 2 ** 31, -(2 ** 31), 2 ** 32 - 1, 2 ** 32,
  2 ** 53 - 1, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, 2 ** 60, 1e21, 1e20, 0.5, -0.25, 1 / 3, 1e-7, NaN, Infinity, -Infinity,
  Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.MAX_VALUE, Number.MIN_VALUE];
for (const n of nums) out.push("s" + n, n + "s", "" + n, n + "");
let i = 0; for (; i < 3; i++) out.push(i + "," + (i * 7) % 5 + ":" + -i);
// results that are array indices, used as keys
const arr = ["a", "b", "c"]; arr[12] = "twelve";
out.push(arr["1" + "2"], arr[1 + "2"], arr["" + 0], ("1" + "2") in arr, Object.keys({ ["3" + "4"]: 1, b: 2 }));
const o = {}; for (let k = 0; k < 5; k++) o["k" + k] = k; out.push(JSON.stringify(o), o["k" + 3]);
// equality with strings made other ways
out.push("ab" + 12 === "ab12", ("x" + -0) === "x0", 5 + "5" === String(55), "a" + "\u00e9" === "a\u00e9");
// NUL, surrogates and non-ASCII in the pieces
out.push(("a\0" + 1).length, ("\ud83d" + "\ude00") === "\ud83d\ude00", ("\ud83d" + "\ude00").length, ("\u00e9" + 1 + "\u4e2d").length);
// symbols still refuse to become strings
try { out.push("a" + Symbol("s")); } catch (e) { out.push(e.name); }
try { out.push(Symbol("s") + 1); } catch (e) { out.push(e.name); }
// objects and booleans go through ToPrimitive as before
out.push("v" + { valueOf() { return 42; } }, "t" + true + null + undefined, [1, 2] + "x", 1 + { toString() { return "!"; } });
// a long string concatenated with a number at the end and the start
const long = "L".repeat(5000); out.push((long + 77).slice(-4), (77 + long).slice(0, 4), (long + 1.5).length);
return out;
