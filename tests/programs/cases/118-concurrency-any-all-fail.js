try {
  await Promise.any([3, 6, 9].map((id) => tools.flaky.unstable({ id })));
  return "unexpected success";
} catch (e) {
  console.log(e.name, e.errors.length);
  return {
    name: e.name,
    isAggregate: e instanceof AggregateError,
    messages: e.errors.map((x) => x.message).sort(),
    allToolErrors: e.errors.every((x) => x instanceof ToolError),
  };
}
