function format(value: number): string;
function format(value: Date): string;
function format(value: string[]): string;
function format(value: number | Date | string[]): string {
  if (typeof value === "number") return value.toFixed(2);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return value.join(", ");
}
function first<T>(items: T[]): T | undefined;
function first<T>(items: T[], fallback: T): T;
function first<T>(items: T[], fallback?: T): T | undefined {
  return items.length ? items[0] : fallback;
}
return [format(3.14159), format(new Date(Date.UTC(2024, 4, 17))), format(["a", "b"]), first([] as number[], 42), first(["x"]), first([]) ?? "none"];
