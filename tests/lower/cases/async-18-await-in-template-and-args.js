const v = async (x) => x;
`${await v(1)}-${await v(2)}` + Math.max(await v(3), await v(4))
