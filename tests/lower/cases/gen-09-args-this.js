function* g(a, b = a + 1) { yield arguments.length; yield this.tag; yield b; }
[...g.call({ tag: 'T' }, 1)]
