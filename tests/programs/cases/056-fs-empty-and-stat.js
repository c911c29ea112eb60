const empty = await tools.fs.read_file({ path: "/project/data/empty.txt" });
const s = await tools.fs.stat({ path: "/project/data" });
const f = await tools.fs.stat({ path: "/project/data/users.csv" });
console.log(JSON.stringify(empty), typeof empty);
return { emptyIsString: empty === "", dirType: s.type, fileSize: f.size, modifiedYear: new Date(f.modified).getUTCFullYear() };
