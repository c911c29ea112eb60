class Countdown {
  constructor(from) { this.from = from; }
  [Symbol.iterator]() {
    let n = this.from;
    return { next: () => (n > 0 ? { value: n--, done: false } : { value: undefined, done: true }) };
  }
}
class Playlist {
  #songs = [];
  add(...s) { this.#songs.push(...s); return this; }
  *[Symbol.iterator]() { yield* this.#songs; }
}
const cd = new Countdown(4);
const pl = new Playlist().add("intro", "verse").add("outro");
const [first, ...restSongs] = pl;
return {
  countdown: [...cd],
  again: Array.from(cd, (x) => x * 2),
  first, restSongs,
  max: Math.max(...new Countdown(7)),
  isIterable: typeof pl[Symbol.iterator] === "function",
};
