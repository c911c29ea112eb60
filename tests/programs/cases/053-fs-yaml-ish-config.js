// Parse the tiny two-level YAML file by hand.
const text = await tools.fs.read_file({ path: "/project/data/config.yaml" });
const config = {};
let section = null;
for (const raw of text.split("\n")) {
  if (!raw.trim()) continue;
  const indent = raw.length - raw.trimStart().length;
  const [key, ...rest] = raw.trim().split(":");
  const value = rest.join(":").trim();
  if (indent === 0) {
    section = key;
    config[section] = {};
  } else {
    config[section][key] = value === "true" ? true : value === "false" ? false : /^\d+$/.test(value) ? Number(value) : value;
  }
}
console.log(JSON.stringify(config));
return config;
