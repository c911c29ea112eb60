type Nullable<T> = T | null;
type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };
interface Settings { theme: string; editor: { tabs: number; wrap: boolean }; recent: string[] }

function pick<T extends object, K extends keyof T>(obj: T, ...keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = obj[k];
  return out;
}
function omit<T extends object, K extends keyof T>(obj: T, ...keys: K[]): Omit<T, K> {
  const out = { ...obj };
  for (const k of keys) delete (out as Partial<T>)[k];
  return out;
}
function applyPatch(base: Settings, patch: DeepPartial<Settings>): Settings {
  return { ...base, ...patch, editor: { ...base.editor, ...patch.editor } } as Settings;
}
const base: Settings = { theme: "light", editor: { tabs: 2, wrap: false }, recent: ["a.ts"] };
const maybe: Nullable<string> = null;
return {
  picked: pick(base, "theme", "recent"),
  omitted: omit(base, "recent"),
  patched: applyPatch(base, { editor: { wrap: true } }),
  maybe: maybe ?? "null value",
};
