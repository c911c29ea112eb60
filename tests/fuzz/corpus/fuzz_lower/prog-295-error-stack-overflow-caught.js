function depth(n) {
  return depth(n + 1) + 1;
}
try {
  depth(0);
  return "no overflow";
} catch (e) {
  return { name: e.name, isRangeError: e instanceof RangeError };
}
