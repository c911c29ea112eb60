// a direct eval inside a class reaches its #names (an inner class's hide an outer's);
// elsewhere a #name in eval code is a SyntaxError
const out = [];
class K {
  #f = 1;
  #m() { return 2; }
  get #a() { return 3; }
  static #s = 4;
  g = eval('this.#f + 10');
  t(o) { return eval('[o.#f, o.#m(), o.#a, K.#s, #f in o, #f in {}]'); }
  set(v) { eval('this.#f = v'); return this.#f; }
  inner() {
    class J { #f = 'inner'; r() { return eval('this.#f'); } }
    return new J().r();
  }
}
const k = new K();
out.push(k.g, k.t(k).join(), k.set(7), k.inner());
try { eval('({}).#nope'); out.push('accepted'); } catch (e) { out.push(e.name); }
try { (function () { return eval('this.#f'); }).call(k); out.push('accepted'); } catch (e) { out.push(e.name); }
try { new Function('o', 'return o.#f'); out.push('accepted'); } catch (e) { out.push(e.name); }
console.log(out.join('|'));
