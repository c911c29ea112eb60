const tree = {
  name: "root",
  children: [
    { name: "src", children: [{ name: "a.js", size: 120 }, { name: "b.js", size: 80 }, { name: "lib", children: [{ name: "c.js", size: 300 }] }] },
    { name: "README.md", size: 50 },
    { name: "empty", children: [] },
  ],
};
const size = (n) => n.size ?? (n.children ?? []).reduce((s, c) => s + size(c), 0);
const depth = (n) => 1 + Math.max(0, ...(n.children ?? []).map(depth));
const paths = (n, prefix = "") => {
  const p = prefix ? `${prefix}/${n.name}` : n.name;
  return n.children ? n.children.flatMap((c) => paths(c, p)) : [p];
};
const find = (n, pred) => (pred(n) ? n : (n.children ?? []).reduce((hit, c) => hit ?? find(c, pred), null));
return { total: size(tree), depth: depth(tree), files: paths(tree), biggest: find(tree, (n) => n.size > 200)?.name };
