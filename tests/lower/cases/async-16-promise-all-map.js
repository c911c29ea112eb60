const fetchLike = async (id) => { await null; return { id, ok: id % 2 === 0 }; };
const results = await Promise.all([1, 2, 3, 4].map(fetchLike));
results.filter(r => r.ok).map(r => r.id)
