const o = { v: 7, inner: { v: 8, f() { return this.v; } } };
[o.inner?.f(), o?.inner.f(), o.inner.f?.()]
