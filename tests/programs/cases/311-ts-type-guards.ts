type Cat = { kind: "cat"; meows: number };
type Dog = { kind: "dog"; barks: number; breed?: string };
type Fish = { kind: "fish" };
type Pet = Cat | Dog | Fish;

function isDog(p: Pet): p is Dog {
  return p.kind === "dog";
}
function noise(p: Pet): string {
  switch (p.kind) {
    case "cat": return `meow x${p.meows}`;
    case "dog": return `woof x${p.barks}${p.breed ? ` (${p.breed})` : ""}`;
    case "fish": return "...";
    default: {
      const never: never = p;
      return never;
    }
  }
}
const pets: Pet[] = [{ kind: "cat", meows: 2 }, { kind: "dog", barks: 3, breed: "lab" }, { kind: "fish" }, { kind: "dog", barks: 1 }];
const dogs = pets.filter(isDog);
return { noises: pets.map(noise), dogBarks: dogs.reduce((n, d) => n + d.barks, 0) };
