interface Hit { title: string; url: string; snippet: string; score: number }
interface SearchResponse { query: string; results: Hit[] }
const queries: readonly string[] = ["promise", "pagination", "sandbox", "duktape"];
const responses = await Promise.all(queries.map((query) => tools.search.web({ query, limit: 3 }) as Promise<SearchResponse>));
const best = responses
  .map((r): [string, Hit | undefined] => [r.query, r.results[0]])
  .filter((pair): pair is [string, Hit] => pair[1] !== undefined);
const pages = await Promise.all(best.map(([, hit]) => tools.search.fetch_page({ url: hit.url }) as Promise<string>));
return best.map(([q, hit], i) => ({ q, title: hit.title, chars: pages[i].length }));
