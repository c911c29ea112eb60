function f(v) {
  switch (v) {
    case 1: { let m = 'one'; return m; }
    default: let m = 'other'; return m;
  }
}
[f(1), f(2)]
