class Id { static #next = 1; static #take() { return Id.#next++; } static make() { return 'id' + Id.#take(); } }
[Id.make(), Id.make()]
