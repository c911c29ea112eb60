// read_multiple answers several text items: the result is the content array.
const items = await tools.fs.read_multiple({ paths: ["/project/src/util.js", "/project/nope.js", "/project/src/lib/math.js"] });
const files = items.map((item) => {
  const [first, ...rest] = item.text.split("\n");
  return { header: first, lines: rest.filter(Boolean).length };
});
console.log(items.length, items.every((i) => i.type === "text"));
return files;
