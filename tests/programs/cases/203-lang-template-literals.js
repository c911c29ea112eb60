const user = { first: "Grace", last: "Hopper", born: 1906 };
const multiline = `Name: ${user.first} ${user.last}
Born: ${user.born}
Age in 1992: ${1992 - user.born}`;
const nested = `outer ${`inner ${1 + 1}`} end`;
const expr = `${[1, 2, 3].map((n) => n * 2).join("-")} | ${user.missing ?? "n/a"} | ${typeof user}`;
const escaped = `backtick \` dollar \${not} and \\ slash`;
const objInTemplate = `${{}} ${[1, [2, 3]]} ${null} ${undefined}`;
console.log(multiline);
return { lines: multiline.split("\n").length, nested, expr, escaped, objInTemplate };
