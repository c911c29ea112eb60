const api = { data: { items: [{ id: 1 }] }, get() { return this.data; } };
[api.get?.().items?.[0]?.id, api.nope?.().items, api.get().missing?.x.y]
