class QB { #parts = []; where(c) { this.#parts.push(c); return this; } build() { return this.#parts.join(' AND '); } }
new QB().where('a=1').where('b=2').build()
