function binarySearch(arr, target) {
  let lo = 0, hi = arr.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid] === target) return mid;
    if (arr[mid] < target) lo = mid + 1;
    else hi = mid - 1;
  }
  return -(lo + 1);
}
function mergeSort(a) {
  if (a.length < 2) return a;
  const mid = a.length >> 1;
  const l = mergeSort(a.slice(0, mid)), r = mergeSort(a.slice(mid));
  const out = [];
  while (l.length && r.length) out.push(l[0] <= r[0] ? l.shift() : r.shift());
  return [...out, ...l, ...r];
}
function quickSort([pivot, ...rest]) {
  if (pivot === undefined) return [];
  return [...quickSort(rest.filter((x) => x < pivot)), pivot, ...quickSort(rest.filter((x) => x >= pivot))];
}
const data = [38, 27, 43, 3, 9, 82, 10, 3];
const sorted = mergeSort(data);
return { sorted, quick: quickSort(data), find43: binarySearch(sorted, 43), find5: binarySearch(sorted, 5) };
