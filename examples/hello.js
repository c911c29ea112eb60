// A first program for mcp-codemode: `build/mcp-codemode run examples/hello.js`
// runs it through the server's own execution path. The code is the body of an
// async function: top-level await and return work.
const words = ['sandboxed', 'JavaScript', 'in', 'one', 'call'];
console.log('running', words.length, 'steps');
const lengths = words.map((w) => w.length);
await sleep(10);
console.info('slept 10 ms; tools available:', Object.keys(tools).length);
return {
  longest: words[lengths.indexOf(Math.max(...lengths))],
  total: lengths.reduce((a, b) => a + b, 0),
};
