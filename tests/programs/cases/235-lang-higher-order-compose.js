const compose = (...fns) => (x) => fns.reduceRight((v, f) => f(v), x);
const pipe = (...fns) => (x) => fns.reduce((v, f) => f(v), x);
const trim = (s) => s.trim();
const lower = (s) => s.toLowerCase();
const slug = (s) => s.replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
const toSlug = pipe(trim, lower, slug);
const debug = compose((s) => `[${s}]`, (s) => s.toUpperCase());
const partial = (fn, ...preset) => (...later) => fn(...preset, ...later);
const volume = (l, w, h) => l * w * h;
const curry = (fn) => function curried(...args) {
  return args.length >= fn.length ? fn.apply(this, args) : (...more) => curried.apply(this, [...args, ...more]);
};
return {
  slug: toSlug("  Hello, World! 2024  "),
  debug: debug("abc"),
  partial: partial(volume, 2)(3, 4),
  curry: [curry(volume)(2)(3)(4), curry(volume)(2, 3)(4), curry(volume)(2, 3, 4)],
};
