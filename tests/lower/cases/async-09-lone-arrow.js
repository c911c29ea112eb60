async () => {
  const x = await Promise.resolve(5);
  return x + 1;
}
