class Account {
  static #count = 0;
  static bank = "Acme Bank";
  #balance = 0;
  owner;
  history = [];
  constructor(owner, initial = 0) {
    this.owner = owner;
    this.#balance = initial;
    Account.#count++;
  }
  deposit(n) {
    if (n <= 0) throw new RangeError("deposit must be positive");
    this.#balance += n;
    this.history.push(`+${n}`);
    return this;
  }
  #fee() { return 1; }
  withdraw(n) {
    const total = n + this.#fee();
    if (total > this.#balance) throw new Error(`insufficient funds for ${n}`);
    this.#balance -= total;
    this.history.push(`-${total}`);
    return this;
  }
  get balance() { return this.#balance; }
  static get count() { return Account.#count; }
  static isAccount(x) { return #balance in x; }
}
const a = new Account("ada", 100).deposit(50).withdraw(20);
const b = new Account("bob");
let error;
try { b.withdraw(1); } catch (e) { error = e.message; }
return {
  balance: a.balance, history: a.history, count: Account.count, bank: Account.bank, error,
  keys: Object.keys(a), isAccount: [Account.isAccount(a), Account.isAccount({})],
};
