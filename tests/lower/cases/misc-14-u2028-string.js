const s = "a b";
s.length
