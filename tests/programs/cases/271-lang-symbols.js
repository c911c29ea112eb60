const id = Symbol("id");
const other = Symbol("id");
const obj = { [id]: 123, visible: true };
const registered = Symbol.for("app.key");
return {
  different: id !== other,
  description: id.description,
  str: id.toString(),
  value: obj[id],
  keys: Object.keys(obj),
  json: JSON.stringify(obj),
  ownSymbols: Object.getOwnPropertySymbols(obj).length,
  registry: Symbol.for("app.key") === registered,
  keyFor: Symbol.keyFor(registered),
  typeofSym: typeof id,
};
