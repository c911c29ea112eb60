function wrap(text, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if ((line + " " + word).trim().length > width) {
      lines.push(line);
      line = word;
    } else {
      line = (line + " " + word).trim();
    }
  }
  if (line) lines.push(line);
  return lines;
}
const text = "Code mode lets a model write one program that calls many tools, keeps intermediate data out of the context window, and returns only what matters.";
const lines = wrap(text, 28);
lines.forEach((l, i) => console.log(`${String(i + 1).padStart(2)}| ${l}`));
return { count: lines.length, longest: Math.max(...lines.map((l) => l.length)) };
