// Fetch the same document from mirrors; take whichever answers first successfully.
const mirrors = [
  "https://mirror1.example.com/promises",
  "https://docs.example.com/promises",
  "https://mirror2.example.com/promises",
];
const text = await Promise.any(mirrors.map((url) => tools.search.fetch_page({ url })));
console.log(text.split("\n")[0]);
return text.length;
