// Parse HTTP-ish status codes out of tool error messages.
const urls = ["https://docs.example.com/map-set", "https://docs.example.com/missing", "http://old.example.com/"];
const results = await Promise.allSettled(urls.map((url) => tools.search.fetch_page({ url })));
return results.map((r, i) => {
  if (r.status === "fulfilled") return { url: urls[i], status: 200 };
  const m = /HTTP (\d{3})/.exec(r.reason.message);
  return { url: urls[i], status: m ? Number(m[1]) : null };
});
