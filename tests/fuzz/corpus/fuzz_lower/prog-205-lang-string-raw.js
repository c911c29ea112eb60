const path = String.raw`C:\Users\new\table`;
const withExpr = String.raw`x\ty=${1 + 2}\n`;
return { path, len: path.length, withExpr, hasBackslashN: withExpr.endsWith("\\n") };
