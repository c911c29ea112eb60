const Named = class Inner { who() { return typeof Inner; } };
const Anon = class { constructor(v) { this.v = v; } };
[new Named().who(), new Anon(5).v]
