const out = [];
for (const { id, tags: [t1] } of [{ id: 1, tags: ['x'] }, { id: 2, tags: ['y', 'z'] }]) out.push(id + t1);
out
