// Classify failures by kind: tool errors, argument errors, programming errors.
const jobs = [
  () => tools.fs.read_file({ path: "/nope.txt" }),
  () => tools.fs.read_file({ path: "relative.txt" }),
  () => tools.fs.read_file({ path: "/project/package.json" }).then((p) => p.missing.field),
  () => tools.fs.read_file({ path: "/project/package.json" }).then((p) => p.name),
];
const kinds = [];
for (const job of jobs) {
  try {
    kinds.push(`ok:${await job()}`);
  } catch (e) {
    if (e instanceof ToolArgumentError) kinds.push("argument");
    else if (e instanceof ToolError) kinds.push("tool");
    else if (e instanceof TypeError) kinds.push("type");
    else kinds.push("other");
  }
}
return kinds;
