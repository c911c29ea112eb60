const root = new Error("disk full");
const wrapped = new Error("save failed", { cause: root });
const agg = new AggregateError([new Error("a"), new TypeError("b")], "two failures");
return {
  wrapped: wrapped.message,
  cause: wrapped.cause?.message,
  hasCause: "cause" in wrapped,
  noCause: "cause" in new Error("x"),
  agg: [agg.name, agg.message, agg.errors.length, agg.errors.map((e) => e.name)],
  toString: String(agg),
};
