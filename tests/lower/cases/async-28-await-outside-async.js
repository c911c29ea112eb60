// `await` where no async function encloses it is a SyntaxError that says so
// (not a complaint about the token after it); in an arrow's or an async
// function's parameters it is an error too
const outside = [
  '[1, 2].forEach(x => {\n  await sleep(1)\n});',
  'function f() {\n  await g();\n}',
  'var o = { m() { await x; } };',
  'class C { m() { await this.x; } }',
];
const inParams = [
  'async () => { (a = await 1) => {}; };',
  'async function h(a = await 1) {}',
  'function f() { for await (const x of []) {} }',
];
const valid = [
  'var await = 1; await;',
  'async () => { const g = (y = async () => await 1) => y; };',
  'function f() { return await(1) + await[0]; }',
];
const out = [];
for (const src of outside) {
  try { new Function(src); out.push('accepted'); }
  catch (e) { out.push(e.name + ' ' + /only valid in async functions/.test(e.message)); }
}
for (const src of inParams) {
  try { new Function(src); out.push('accepted'); } catch (e) { out.push(e.name); }
}
for (const src of valid) {
  try { new Function(src); out.push('ok'); } catch (e) { out.push(src + ': ' + e.message); }
}
out
