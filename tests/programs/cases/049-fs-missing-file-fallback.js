const candidates = ["/project/config.json", "/project/config/default.json", "/project/tsconfig.json"];
let config = null, used = null;
for (const path of candidates) {
  try {
    config = await tools.fs.read_file({ path });
    used = path;
    break;
  } catch (err) {
    console.log(`skip ${path}: ${err.message.split(",")[0]}`);
  }
}
return { used, target: config?.compilerOptions?.target, strict: config?.compilerOptions?.strict ?? false };
