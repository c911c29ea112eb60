let a = 1
let b = 2
const f = () => a
+ b
const arr = [a, b]
;[a, b] = [b, a]
const s = `x`
f() + arr.length + a
