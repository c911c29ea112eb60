class InsufficientFunds extends Error {
  constructor(account, amount) {
    super(`${account.id}: cannot withdraw ${amount}, balance ${account.balance}`);
    this.name = "InsufficientFunds";
  }
}
class Account {
  static #nextId = 1;
  #balance = 0;
  constructor(owner) { this.id = `ACC${Account.#nextId++}`; this.owner = owner; }
  get balance() { return this.#balance; }
  deposit(n) { this.#balance += n; return this; }
  withdraw(n) {
    if (n > this.#balance) throw new InsufficientFunds(this, n);
    this.#balance -= n;
    return this;
  }
}
class Ledger {
  entries = [];
  transfer(from, to, amount) {
    try {
      from.withdraw(amount);
      to.deposit(amount);
      this.entries.push({ from: from.id, to: to.id, amount, ok: true });
    } catch (e) {
      if (!(e instanceof InsufficientFunds)) throw e;
      this.entries.push({ from: from.id, to: to.id, amount, ok: false, why: e.message });
    }
  }
}
const a = new Account("ada").deposit(100), b = new Account("bob").deposit(20);
const ledger = new Ledger();
ledger.transfer(a, b, 30);
ledger.transfer(b, a, 80);
ledger.transfer(b, a, 50);
return { balances: [a.balance, b.balance], entries: ledger.entries };
