const a = [1, 2];
`outer ${a.map(x => `inner ${x}`).join(';')} end`
