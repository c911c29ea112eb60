const o = { f() { return this === o; }, g: null };
[o.f?.(), o.g?.(), o.h?.().x, o?.f()]
