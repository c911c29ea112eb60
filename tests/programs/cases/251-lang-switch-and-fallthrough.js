function classify(v) {
  switch (typeof v) {
    case "number":
      if (Number.isNaN(v)) return "nan";
    // falls through
    case "bigint":
      return "numeric";
    case "string":
      return v.length ? "text" : "empty text";
    case "object":
      if (v === null) return "null";
      return Array.isArray(v) ? "list" : "record";
    default:
      return typeof v;
  }
}
function grade(score) {
  switch (true) {
    case score >= 90: return "A";
    case score >= 80: return "B";
    case score >= 70: return "C";
    default: return "F";
  }
}
return {
  classes: [1, NaN, "", "x", null, [], {}, undefined, () => 1, true].map(classify),
  grades: [95, 85, 72, 10].map(grade),
};
