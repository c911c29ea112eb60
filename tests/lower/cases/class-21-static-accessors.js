class Temp { static #c = 0; static get count() { return Temp.#c; } static set count(v) { Temp.#c = v * 2; } }
Temp.count = 5;
Temp.count
