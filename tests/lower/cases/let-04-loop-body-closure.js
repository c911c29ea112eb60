const fns = [];
for (var i = 0; i < 3; i++) { let j = i * 10; fns.push(function () { return j; }); }
fns.map(f => f()).join()
