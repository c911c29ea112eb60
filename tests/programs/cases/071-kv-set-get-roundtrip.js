const ns = "p071";
const profile = { name: "Ada", langs: ["js", "py"], prefs: { theme: "dark", tabs: 2 } };
const { version } = await tools.kv.set({ ns, key: "user:ada", value: profile });
const got = await tools.kv.get({ ns, key: "user:ada" });
const missing = await tools.kv.get({ ns, key: "user:bob" });
console.log(`version ${version}, found=${got.found}, missing.found=${missing.found}`);
return { equal: JSON.stringify(got.value) === JSON.stringify(profile), version: got.version, missing };
