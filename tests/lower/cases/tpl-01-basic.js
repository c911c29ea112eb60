const name = 'world', n = 3;
`hello ${name}, ${n + 1} times`
