// incr answers the new number as text, which arrives parsed as a number.
const ns = "p072";
const pages = ["/", "/docs", "/", "/pricing", "/", "/docs"];
for (const page of pages) await tools.kv.incr({ ns, key: `hits:${page}` });
const bonus = await tools.kv.incr({ ns, key: "hits:/", by: 10 });
const { keys } = await tools.kv.list({ ns, prefix: "hits:" });
const values = await Promise.all(keys.map((key) => tools.kv.get({ ns, key })));
console.log(typeof bonus, bonus);
return Object.fromEntries(values.map((v) => [v.key.slice(5), v.value]));
