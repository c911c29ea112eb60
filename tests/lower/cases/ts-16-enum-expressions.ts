enum E { A = 2, B = A * 3, C, D = 'd'.length }
enum S { X = 'x', Y = `y` }
[E.A, E.B, E.C, E[6], E.D, S.X, S.Y]
