class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.name = "HttpError";
    this.status = status;
  }
  get retryable() { return this.status >= 500; }
}
class NotFound extends HttpError {
  constructor(what) {
    super(404, `${what} not found`);
    this.name = "NotFound";
  }
}
const errors = [new HttpError(503, "unavailable"), new NotFound("page"), new Error("plain")];
return errors.map((e) => ({
  str: String(e),
  name: e.name,
  message: e.message,
  retryable: e.retryable ?? null,
  http: e instanceof HttpError,
  nf: e instanceof NotFound,
  err: e instanceof Error,
}));
