class Store<S> {
  constructor(private state: S) {}
  select<K extends keyof S>(key: K): S[K] { return this.state[key]; }
  update(patch: Partial<S>): this { this.state = { ...this.state, ...patch }; return this; }
}
const st = new Store({ a: 1, b: 'x' });
[st.update({ a: 5 }).select('a'), st.select('b')]
