const a = 1;
const b = ;
return a + b;
