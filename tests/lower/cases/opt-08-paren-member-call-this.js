// a parenthesised member keeps its reference: (a.b)?.() calls with this = a
const a = { b() { return this === a; }, c: null };
const out = [(a.b)?.(), ((a.b))?.(), (a['b'])?.(), (a?.b)?.(), (a.c)?.(), (a.c?.d)?.()];
const n = null;
out.push((n?.b)?.());
class K {
  #f = function () { return this instanceof K; };
  #m() { return this instanceof K; }
  t(o) { return [o.#f?.(), (o.#f)?.(), o.#m?.(), (o.#m)?.()]; }
}
out.push(new K().t(new K()));
try { new K().t({}); } catch (e) { out.push(e.name); }
out
