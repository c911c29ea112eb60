const o = { n: 'o', f() { return () => () => this.n; } };
o.f()()()
