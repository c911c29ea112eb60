class A {
  private _n: number = 0;
  get n(): number { return this._n; }
  set n(v: number) { this._n = v; }
  static readonly MAX: number = 10;
  protected static helper(): string { return 'h'; }
}
const a = new A(); a.n = 4;
[a.n, A.MAX]
