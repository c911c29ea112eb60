const out = [];
for (const args of ["acme", 42, [1, 2], null]) {
  try {
    await tools.github.list_repos(args);
    out.push("ok");
  } catch (e) {
    out.push(e.name);
  }
}
// no arguments at all means {} — which lacks the required org
try {
  await tools.github.list_repos();
} catch (e) {
  out.push(`none:${e.name}`);
}
return out;
