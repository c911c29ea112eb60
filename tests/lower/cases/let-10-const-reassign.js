const k = 1;
try { k = 2; } catch (e) { console.log(e.name); }
k
