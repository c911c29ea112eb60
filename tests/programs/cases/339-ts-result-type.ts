type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };
const Ok = <T,>(value: T): Result<T> => ({ ok: true, value });
const Err = (error: string): Result<never> => ({ ok: false, error });
function parseAge(s: string): Result<number> {
  const n = Number(s);
  if (!Number.isInteger(n)) return Err(`not an integer: ${JSON.stringify(s)}`);
  if (n < 0 || n > 150) return Err(`out of range: ${n}`);
  return Ok(n);
}
function map<T, U>(r: Result<T>, f: (t: T) => U): Result<U> {
  return r.ok ? Ok(f(r.value)) : r;
}
const inputs = ["42", "x", "-1", "7"];
return inputs.map((s) => map(parseAge(s), (n) => (n >= 18 ? "adult" : "minor")));
