// @no-line
class ValidationError extends Error {
  constructor(field, problem) {
    super(`${field}: ${problem}`);
    this.name = "ValidationError";
    this.field = field;
  }
}
const input = { email: "not-an-email" };
if (!input.email.includes("@")) {
  throw new ValidationError("email", "missing @");
}
return "valid";
