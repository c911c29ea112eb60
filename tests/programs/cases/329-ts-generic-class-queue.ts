class PriorityQueue<T> {
  private items: { item: T; priority: number; seq: number }[] = [];
  private seq = 0;
  push(item: T, priority: number): this {
    this.items.push({ item, priority, seq: this.seq++ });
    this.items.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
    return this;
  }
  pop(): T | undefined { return this.items.shift()?.item; }
  get size(): number { return this.items.length; }
}
const q = new PriorityQueue<string>();
q.push("low", 5).push("urgent", 1).push("mid", 3).push("urgent-2", 1);
const order: string[] = [];
while (q.size) order.push(q.pop()!);
return order;
