const o = { m() { return [1].map(() => arguments.length); } };
o.m('a', 'b')
