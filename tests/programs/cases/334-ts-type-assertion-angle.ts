const raw: unknown = JSON.parse('{"items":[{"n":1},{"n":2}],"meta":{"page":1}}');
const data = <{ items: { n: number }[]; meta: { page: number } }>raw;
const sum = data.items.map((i) => i.n).reduce((a, b) => a + b, 0);
const asNum = <number>(<unknown>"not really a number");
return { sum, page: data.meta.page, typeofAsNum: typeof asNum };
