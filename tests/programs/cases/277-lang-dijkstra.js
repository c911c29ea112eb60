const graph = {
  A: { B: 4, C: 2 },
  B: { C: 5, D: 10 },
  C: { E: 3 },
  D: { F: 11 },
  E: { D: 4 },
  F: {},
};
function shortest(start, goal) {
  const dist = Object.fromEntries(Object.keys(graph).map((k) => [k, Infinity]));
  const prev = {};
  dist[start] = 0;
  const todo = new Set(Object.keys(graph));
  while (todo.size) {
    const u = [...todo].reduce((a, b) => (dist[b] < dist[a] ? b : a));
    todo.delete(u);
    for (const [v, w] of Object.entries(graph[u])) {
      if (dist[u] + w < dist[v]) { dist[v] = dist[u] + w; prev[v] = u; }
    }
  }
  const path = [];
  for (let n = goal; n; n = prev[n]) path.unshift(n);
  return { distance: dist[goal], path: path.join("→") };
}
return [shortest("A", "F"), shortest("A", "D"), shortest("B", "E")];
