class U { constructor() { this.first = 'a'; this.last = 'b'; } get full() { return this.first + this.last; } toJSON() { return { full: this.full }; } }
JSON.stringify(new U())
