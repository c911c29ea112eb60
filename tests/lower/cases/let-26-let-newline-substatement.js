// in a single-statement context, let then a line break is the identifier let (ASI), not a declaration
var let = 0, out = [];
if (true) let
{ out.push("block"); }
for (var i = 0; i < 2; i++) let
out.push(let);
out
