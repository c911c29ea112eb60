// Non-mutating helpers from ES2023 and findLast.
const nums = [5, 1, 4, 2, 3];
const sorted = nums.toSorted((a, b) => a - b);
const reversed = nums.toReversed();
const replaced = nums.with(0, 50);
const spliced = nums.toSpliced(1, 2);
return {
  original: nums,
  sorted, reversed, replaced, spliced,
  findLast: nums.findLast((n) => n % 2 === 0),
  findLastIndex: nums.findLastIndex((n) => n > 3),
};
