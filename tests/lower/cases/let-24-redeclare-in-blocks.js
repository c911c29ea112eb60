const r = [];
{ const v = 1; r.push(v); }
{ const v = 2; r.push(v); }
{ let v = 3; { let v = 4; r.push(v); } r.push(v); }
r
