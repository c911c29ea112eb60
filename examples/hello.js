// A first program for mcp-codemode: `make run` runs it through the server's
// own execution path. The code is the body of an async function.
var words = ['sandboxed', 'JavaScript', 'in', 'one', 'call'];
console.log('running', words.length, 'steps');
var lengths = words.map(function (w) { return w.length; });
__await(sleep(10));
console.info('slept 10 ms; tools available:', Object.keys(tools).length);
return { longest: words[lengths.indexOf(Math.max.apply(null, lengths))], total: lengths.reduce(function (a, b) { return a + b; }, 0) };
