const log = [];
class A { a = log.push('a'); constructor() { log.push('ctor A'); } }
class B extends A { b = log.push('b'); constructor() { log.push('before super'); super(); log.push('ctor B'); } }
new B();
log
