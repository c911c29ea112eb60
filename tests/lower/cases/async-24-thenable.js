const thenable = { then(res) { res('from thenable'); } };
await thenable
