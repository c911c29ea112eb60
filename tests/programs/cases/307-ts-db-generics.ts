interface User { id: number; name: string; plan: "free" | "pro" | "team"; active: boolean }
interface Page<T> { rows: T[]; total: number; limit: number; offset: number }

async function fetchAll<T>(table: string, where: Record<string, unknown> = {}): Promise<T[]> {
  const out: T[] = [];
  let offset = 0;
  for (;;) {
    const page = (await tools.db.select({ table, where, limit: 15, offset })) as Page<T>;
    out.push(...page.rows);
    offset += page.limit;
    if (offset >= page.total) return out;
  }
}
function groupBy<T, K extends string>(items: T[], key: (t: T) => K): Record<K, T[]> {
  return items.reduce((acc, item) => {
    (acc[key(item)] ||= []).push(item);
    return acc;
  }, {} as Record<K, T[]>);
}
const users = await fetchAll<User>("users", { active: true });
const byPlan = groupBy(users, (u) => u.plan);
return Object.fromEntries(Object.entries(byPlan).map(([plan, list]) => [plan, (list as User[]).length]).sort());
