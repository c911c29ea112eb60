const all = await tools.fs.search_files({ path: "/", pattern: "**" });
const stats = await Promise.all(all.map((path) => tools.fs.stat({ path })));
const byExt = {};
for (const s of stats) {
  const ext = s.path.includes(".") ? s.path.slice(s.path.lastIndexOf(".") + 1) : "(none)";
  byExt[ext] ??= { files: 0, bytes: 0 };
  byExt[ext].files += 1;
  byExt[ext].bytes += s.size;
}
const sorted = Object.entries(byExt).sort((a, b) => b[1].bytes - a[1].bytes || (a[0] < b[0] ? -1 : 1));
console.log(`${all.length} files`);
return sorted.map(([ext, v]) => `${ext}: ${v.files} file(s), ${v.bytes} B`);
