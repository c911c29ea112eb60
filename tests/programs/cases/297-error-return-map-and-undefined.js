// Maps and Sets are not JSON: they serialise as {}; functions and undefined are dropped.
const m = new Map([["a", 1]]);
return { map: m, set: new Set([1, 2]), fn: () => 1, nothing: undefined, mapEntries: Object.fromEntries(m), list: [...new Set([1, 2])] };
