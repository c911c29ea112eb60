class Base { constructor() { this.log = ['base']; } }
class Derived extends Base { field = this.log.push('field'); constructor() { super(); this.log.push('ctor'); } }
new Derived().log
