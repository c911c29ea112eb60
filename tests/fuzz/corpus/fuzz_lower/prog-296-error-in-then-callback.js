const value = await Promise.resolve(21).then((x) => {
  if (x < 50) throw new TypeError(`value ${x} is too small`);
  return x * 2;
});
return value;
