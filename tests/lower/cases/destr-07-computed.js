const key = 'dyn';
const { [key]: v, [`x${1}`]: w } = { dyn: 'D', x1: 'X' };
[v, w]
