const values = [0, -0, "", "0", null, undefined, NaN, [], {}, false];
const truthy = values.map((v) => !!v);
return {
  typeofs: values.map((v) => typeof v),
  truthy,
  looseNull: [null == undefined, null == 0, "" == 0, "0" == false, [] == false],
  strict: [null === undefined, 0 === -0, NaN === NaN],
  objectIs: Object.is(0, -0),
  typeofUndeclared: typeof notDeclaredAnywhere,
  instanceofArray: [[] instanceof Array, Array.isArray([]), Array.isArray({ length: 0 })],
};
