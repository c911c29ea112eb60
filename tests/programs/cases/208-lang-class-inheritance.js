class Animal {
  constructor(name) { this.name = name; }
  speak() { return `${this.name} makes a sound`; }
  get kind() { return "animal"; }
  static create(name) { return new this(name); }
}
class Dog extends Animal {
  constructor(name, breed) {
    super(name);
    this.breed = breed;
  }
  speak() { return `${super.speak()}; ${this.name} barks`; }
  get kind() { return `dog (${super.kind})`; }
}
class Puppy extends Dog {
  speak() { return super.speak().replace("barks", "yips"); }
}
const d = new Dog("Rex", "lab");
const p = Puppy.create("Bit");
return {
  dog: d.speak(), kind: d.kind, puppy: p.speak(), puppyKind: p.kind,
  chain: [p instanceof Puppy, p instanceof Dog, p instanceof Animal],
  protoName: Object.getPrototypeOf(Puppy) === Dog,
  breed: p.breed ?? "unknown",
};
