class Q { get [Symbol.toStringTag]() { return 'Q'; } }
Object.prototype.toString.call(new Q())
