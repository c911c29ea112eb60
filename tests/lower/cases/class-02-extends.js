class Animal { constructor(name) { this.name = name; } speak() { return this.name + ' makes a sound'; } }
class Dog extends Animal { speak() { return super.speak() + ' (woof)'; } }
const d = new Dog('Rex');
[d.speak(), d instanceof Animal, Object.getPrototypeOf(Dog) === Animal]
