// Ten concurrent increments of one key: the server applies each exactly once.
const ns = "p126";
const answers = await Promise.all(Array.from({ length: 10 }, () => tools.kv.incr({ ns, key: "hits" })));
const final = await tools.kv.get({ ns, key: "hits" });
return { final: final.value, distinctAnswers: new Set(answers).size, max: Math.max(...answers) };
