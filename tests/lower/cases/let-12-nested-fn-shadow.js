let n = 0;
function inc() { n++; return n; }
{ let n = 100; inc(); inc(); console.log(n); }
n
