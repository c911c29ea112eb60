class A { async load() { await null; return 'A'; } }
class B extends A { async load() { const base = await super.load(); return base + 'B'; } }
await new B().load()
