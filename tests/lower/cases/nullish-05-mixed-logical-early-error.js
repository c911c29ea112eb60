// ?? mixed with || or && without parentheses is an early SyntaxError
const out = [];
for (const src of ['a ?? b || c', 'a || b ?? c', 'a && b ?? c', 'a ?? b && c', 'a ?? b ?? c || d',
                   '(a ?? b) || c', 'a ?? (b || c)', '(a || b) ?? c', 'a ?? (b && c)', 'a ?? b ?? c',
                   'a ?? b ? c : d', '(a && b) ?? c']) {
  try { out.push(src + ' -> ' + new Function('a', 'b', 'c', 'd', 'return ' + src)(null, 0, 2, 3)); }
  catch (e) { out.push(src + ' -> ' + e.name); }
}
out
