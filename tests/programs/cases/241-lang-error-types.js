const probes = {
  reference: () => undefinedVariable + 1,
  type: () => null.prop,
  typeCall: () => (42)(),
  range: () => new Array(-1),
  rangeFixed: () => (1).toFixed(200),
  syntaxJson: () => JSON.parse("{"),
  uri: () => decodeURIComponent("%"),
  custom: () => { throw new EvalError("custom eval error"); },
};
const out = {};
for (const [k, fn] of Object.entries(probes)) {
  try {
    fn();
    out[k] = "no error";
  } catch (e) {
    out[k] = [e.name, e instanceof Error, e.constructor === globalThis[e.name]];
  }
}
return out;
