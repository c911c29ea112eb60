const out = [];
try { out.push(early); } catch (e) { out.push(e.name); }
let early = 1;
try { new Later(); } catch (e) { out.push(e.name); }
class Later {}
function later() { return lateConst; }
const lateConst = 'ok';
out.push(later());
out
