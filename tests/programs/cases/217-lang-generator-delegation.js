function* inner() {
  yield "i1";
  yield "i2";
  return "inner-done";
}
function* outer() {
  yield "o1";
  const r = yield* inner();
  yield `o2 (${r})`;
  yield* ["a", "b"];
  yield* "cd";
}
function* tree(node) {
  yield node.v;
  for (const c of node.children ?? []) yield* tree(c);
}
const t = { v: 1, children: [{ v: 2, children: [{ v: 4 }] }, { v: 3 }] };
return { seq: [...outer()], tree: [...tree(t)] };
