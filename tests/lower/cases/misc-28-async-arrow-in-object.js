const svc = { name: 'svc', run: async () => 'ran', nested: { go: async function () { return this === svc.nested; } } };
[await svc.run(), await svc.nested.go()]
