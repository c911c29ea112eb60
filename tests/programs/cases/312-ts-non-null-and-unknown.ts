const lookup = new Map<string, number>([["a", 1], ["b", 2]]);
const a: number = lookup.get("a")!;
let definitelyLater!: string;
definitelyLater = "assigned";
function parse(input: unknown): number {
  if (typeof input === "number") return input;
  if (typeof input === "string" && input.trim() !== "" && !Number.isNaN(Number(input))) return Number(input);
  if (Array.isArray(input)) return input.length;
  return -1;
}
const el = { value: "x" } as { value?: string };
return { a, definitelyLater, parsed: [parse(5), parse(" 7 "), parse([1, 2, 3]), parse({}), parse("abc")], len: el.value!.length };
