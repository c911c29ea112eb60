function parseQuery(qs) {
  const out = {};
  for (const part of qs.replace(/^\?/, "").split("&").filter(Boolean)) {
    const [rawK, rawV = ""] = part.split("=");
    const k = decodeURIComponent(rawK.replace(/\+/g, " "));
    const v = decodeURIComponent(rawV.replace(/\+/g, " "));
    if (k.endsWith("[]")) (out[k.slice(0, -2)] ??= []).push(v);
    else out[k] = v;
  }
  return out;
}
function toQuery(obj) {
  return Object.entries(obj)
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [`${k}[]`, x]) : [[k, v]]))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
}
const parsed = parseQuery("?q=hello+world&tag[]=a&tag[]=b%20c&empty=&flag&name=J%C3%B6rg");
return { parsed, back: toQuery(parsed), encoded: encodeURIComponent("a b&c/d?e=é"), uri: encodeURI("https://x.io/a b?q=1&r=é") };
