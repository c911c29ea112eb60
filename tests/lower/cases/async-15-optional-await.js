const o = { f: async () => 'F' };
[await o.f?.(), await o.g?.()]
