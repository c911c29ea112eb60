declare const __BUILD_FLAG__: boolean | undefined;
type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
function countLeaves(v: Json): number {
  if (v === null || typeof v !== "object") return 1;
  if (Array.isArray(v)) return v.reduce<number>((n, x) => n + countLeaves(x), 0);
  return Object.values(v).reduce<number>((n, x) => n + countLeaves(x), 0);
}
const doc: Json = { a: [1, 2, { b: null }], c: "x", d: { e: true, f: [] } };
return { flagDeclaredOnly: typeof __BUILD_FLAG__ === "undefined", leaves: countLeaves(doc) };
