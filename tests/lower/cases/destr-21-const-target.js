// destructuring assignment to a const binding reads the value, then throws TypeError
const c = 1; let out = [];
try { [c] = [2]; } catch (e) { out.push(e.name); }
try { ({c} = {c: 2}); } catch (e) { out.push(e.name); }
try { ({a: c} = {}); } catch (e) { out.push(e.name); }
const [d] = [5]; const {e} = {e: 6};
out.push(c, d, e);
out
