const entries = await tools.fs.list_dir({ path: "/project/src" });
const files = entries.filter((e) => e.type === "file");
const report = ["# Source files", "", ...files.map((f) => `- ${f.name}: ${f.size} bytes`)].join("\n");
const confirmation = await tools.fs.write_file({ path: "/tmp/report.md", content: report });
console.log(confirmation);
let denied;
try {
  await tools.fs.write_file({ path: "/etc/report.md", content: report });
} catch (e) {
  denied = e.message;
}
return { confirmation, denied };
