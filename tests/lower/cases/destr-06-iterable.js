const [first, second] = new Set(['s1', 's2', 's3']);
const [h, ...t] = 'héllo';
[first, second, h, t.join('')]
