const grid = [
  [1, 2, 3],
  [4, -5, 6],
  [7, 8, -9],
];
let firstNegative = null;
outer: for (let r = 0; r < grid.length; r++) {
  for (let c = 0; c < grid[r].length; c++) {
    if (grid[r][c] < 0) {
      firstNegative = [r, c];
      break outer;
    }
  }
}
const skipped = [];
rows: for (const row of grid) {
  for (const v of row) {
    if (v < 0) continue rows;
  }
  skipped.push(row.join(""));
}
let count = 0;
block: {
  count++;
  if (count > 0) break block;
  count = 100;
}
return { firstNegative, cleanRows: skipped, count };
