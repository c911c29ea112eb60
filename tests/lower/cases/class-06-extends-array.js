class Stack extends Array { peek() { return this[this.length - 1]; } }
const s = new Stack();
s.push(1, 2, 3);
[s.length, s.peek(), Array.isArray(s), s instanceof Stack]
