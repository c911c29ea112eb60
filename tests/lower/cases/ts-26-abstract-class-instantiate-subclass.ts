abstract class Base<T> {
  protected abstract value(): T;
  show(): string { return `[${this.value()}]`; }
}
class Impl extends Base<number> { protected value(): number { return 42; } }
new Impl().show()
