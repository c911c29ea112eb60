// Images come back as content arrays; pass them along untouched.
const logo = await tools.fs.read_file({ path: "/project/assets/logo.png" });
const icon = await tools.fs.read_file({ path: "/project/assets/icon.png" });
const describe = (c) => ({ isArray: Array.isArray(c), items: c.length, type: c[0].type, mime: c[0].mimeType, b64len: c[0].data.length });
console.log(JSON.stringify(describe(logo)));
const [meta1, meta2] = await Promise.all(["/project/assets/logo.png", "/project/assets/icon.png"].map((path) => tools.fs.stat({ path })));
return { logo: describe(logo), icon: describe(icon), sizes: [meta1.size, meta2.size], sameHeader: logo[0].data.slice(0, 12) === icon[0].data.slice(0, 12) };
