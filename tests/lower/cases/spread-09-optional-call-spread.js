const o = { f(...a) { return a.length; } };
[o.f?.(...[1, 2]), o.g?.(...[1])]
