class P { constructor(x, y) { this.s = x + y; } }
new P(...[3, 4]).s
