class AppError extends Error {
  constructor(message: string, public readonly code: string, public readonly retryable = false) {
    super(message);
    this.name = "AppError";
  }
}
function assertPositive(n: number, field: string): asserts n is number {
  if (!(n > 0)) throw new AppError(`${field} must be positive, got ${n}`, "E_RANGE");
}
const results: string[] = [];
for (const [field, n] of [["qty", 3], ["price", -2], ["weight", 0]] as [string, number][]) {
  try {
    assertPositive(n, field);
    results.push(`${field} ok`);
  } catch (e) {
    const err = e as AppError;
    results.push(`${err.name}/${err.code}/${err.retryable}: ${err.message}`);
  }
}
return results;
