const url = "https://docs.example.com/async-await";
const page = await tools.search.fetch_page({ url });
const words = page.toLowerCase().replace(/[^a-z\s]/g, " ").split(/\s+/).filter((w) => w.length > 3);
const freq = new Map();
for (const w of words) freq.set(w, (freq.get(w) || 0) + 1);
const top = [...freq].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5);
console.log(`${words.length} words, ${freq.size} distinct`);
return top.map(([w, n]) => `${w}×${n}`);
