const v = `start ${
  1 + 2
} end`;
v
