// Solves the maze of examples/maze/maze_server.c in ONE execute_code call:
// a depth-first walk through the fog of war (each step is a tool call the
// model never has to see), picking up the key on the way, then back to the
// locked door, unlock it, and out. The model would otherwise spend ~150 turns.
const { look, move, pickup, use } = tools.maze;
const offsets = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0] };
const opposite = { north: 'south', south: 'north', east: 'west', west: 'east' };
const cell = ({ x, y }) => `${x},${y}`;
const visited = new Set();
let toDoor = null; // the directions from the start to the cell before the door

async function explore(view, path) {
  visited.add(cell(view.position));
  if (view.here === 'key') {
    view = await pickup();
    console.log(`picked up the key at ${cell(view.position)}`);
  }
  if (view.door) toDoor = { path: [...path], through: view.door.direction };
  for (const dir of view.exits) {
    const [dx, dy] = offsets[dir];
    const next = { x: view.position.x + dx, y: view.position.y + dy };
    if (visited.has(cell(next)) || view.door?.direction === dir) continue;
    await explore(await move({ direction: dir }), [...path, dir]);
    view = await move({ direction: opposite[dir] }); // step back
  }
  return view;
}

let view = await explore(await look(), []);
console.log(`explored ${visited.size} cells; the door is ${toDoor.path.length + 1} steps away`);
for (const direction of toDoor.path) view = await move({ direction });
await use({ item: 'key' });
view = await move({ direction: toDoor.through });
return { escaped: view.escaped, moves: view.moves, explored: visited.size };
