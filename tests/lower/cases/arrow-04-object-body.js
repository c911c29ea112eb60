const mk = (a, b) => ({ a, b });
JSON.stringify(mk(1, 2))
