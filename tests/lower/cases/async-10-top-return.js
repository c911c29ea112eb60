const v = await Promise.resolve('early');
if (v) return v + '!';
'unreachable'
