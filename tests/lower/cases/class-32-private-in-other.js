class P { #secret = 42; static read(o) { try { return o.#secret; } catch (e) { return 'no'; } } }
[P.read(new P())]
