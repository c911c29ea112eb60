function html(strings, ...values) {
  const esc = (v) => String(v).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  return strings.reduce((out, s, i) => out + s + (i < values.length ? esc(values[i]) : ""), "");
}
function parts(strings, ...values) {
  return { strings: [...strings], raw: strings.raw.slice(), values };
}
const name = '<script>alert("x")</script>';
const tag = html`<p title="${name}">Hello ${name} & co</p>`;
const p = parts`a${1}b${"two"}c\n`;
const upper = (s, ...v) => s.map((str, i) => str + (v[i] !== undefined ? String(v[i]).toUpperCase() : "")).join("");
return { tag, p, upper: upper`hello ${"world"} and ${"moon"}!` };
