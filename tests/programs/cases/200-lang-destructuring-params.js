function createUser({ name, role = "viewer", tags = [], meta: { team = "core" } = {} } = {}) {
  return `${name}:${role}:${team}:${tags.length}`;
}
const pairs = Object.entries({ a: 1, b: 2 }).map(([k, v]) => `${k}=${v}`);
const sumPoints = (points) => points.reduce((acc, { x = 0, y = 0 }) => acc + x + y, 0);
const nullish = ({ v } = { v: "fallback" }) => v;
return [
  createUser({ name: "ada" }),
  createUser({ name: "bob", role: "admin", tags: ["x"], meta: { team: "infra" } }),
  createUser({ name: "cy", meta: {} }),
  pairs.join("&"),
  sumPoints([{ x: 1, y: 2 }, { x: 3 }, {}]),
  nullish(),
  nullish({ v: null }),
];
