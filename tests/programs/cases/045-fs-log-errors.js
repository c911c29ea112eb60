// Find the 5xx responses across the log files, newest first.
const files = await tools.fs.search_files({ path: "/logs", pattern: "*.log" });
const texts = await Promise.all(files.map((path) => tools.fs.read_file({ path })));
const re = /^(\S+) (\w+) (GET|POST) (\S+) status=(\d{3}) ms=(\d+)$/;
const errors = [];
texts.forEach((t, i) => {
  for (const line of t.split("\n")) {
    const m = re.exec(line);
    if (m && m[5] >= 500) errors.push({ at: m[1], path: m[4], status: +m[5], file: files[i].split("/").pop() });
  }
});
errors.sort((a, b) => (a.at < b.at ? 1 : -1));
console.log(`${errors.length} server errors in ${files.length} files`);
return errors.slice(0, 5);
