interface Entry<T> { key: string; found: boolean; value: T | null; version: number }
class TypedCache<T> {
  private hits = 0;
  private misses = 0;
  constructor(private readonly ns: string) {}
  async get(key: string, load: () => Promise<T>): Promise<T> {
    const e = (await tools.kv.get({ ns: this.ns, key })) as Entry<T>;
    if (e.found && e.value !== null) {
      this.hits++;
      return e.value;
    }
    this.misses++;
    const v = await load();
    await tools.kv.set({ ns: this.ns, key, value: v as unknown });
    return v;
  }
  stats(): { hits: number; misses: number } {
    return { hits: this.hits, misses: this.misses };
  }
}
type Profile = { login: string; name: string; followers: number };
const cache = new TypedCache<Profile>("p313");
const logins = ["bob-dev", "grace-sec", "bob-dev", "bob-dev", "grace-sec"];
const names: string[] = [];
for (const login of logins) {
  const p = await cache.get(`user:${login}`, () => tools.github.get_user({ login }) as Promise<Profile>);
  names.push(p.name);
}
return { names, ...cache.stats() };
