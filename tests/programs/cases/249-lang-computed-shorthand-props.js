const key = "dynamic";
const n = 2;
const x = 10, y = 20;
const obj = {
  x, y,
  [key]: true,
  [`${key}_${n}`]: "two",
  ["k" + n * 2]: "four",
  method() { return this.x + this.y; },
  get sum() { return this.method(); },
  "quoted key": 1,
  [Symbol.toStringTag]: "Custom",
};
return {
  keys: Object.keys(obj),
  sum: obj.sum,
  tag: Object.prototype.toString.call(obj),
  four: obj.k4,
  json: JSON.stringify(obj),
};
