// Breadth-first "crawl": fetch each page of the top results, with a page budget.
const budget = 4;
const queue = (await tools.search.web({ query: "code mode tools model", limit: 10 })).results.map((r) => r.url);
const visited = [];
while (queue.length && visited.length < budget) {
  const url = queue.shift();
  if (visited.includes(url)) continue;
  const text = await tools.search.fetch_page({ url });
  visited.push(url);
  console.log(`${visited.length}: ${text.split("\n")[0].slice(2)}`);
}
return { visited: visited.length, remaining: queue.length };
