const urls = [
  "https://docs.example.com/promises",
  "https://docs.example.com/generators",
  "https://blog.example.org/pagination",
  "https://example.invalid/x",
];
const checks = await Promise.allSettled(urls.map((url) => tools.search.fetch_page({ url })));
const dead = checks.flatMap((c, i) => (c.status === "rejected" ? [{ url: urls[i], why: c.reason.message.split(":")[0] }] : []));
const alive = checks.filter((c) => c.status === "fulfilled").map((c) => c.value.split("\n")[0]);
console.log(`${alive.length} alive, ${dead.length} dead`);
return { alive, dead };
