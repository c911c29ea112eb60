// a direct eval of modern syntax sees the caller's scope
function outer(y) {
    var z = 5;
    const r = eval('[y, z].map((v, i) => `${i}:${v ?? 0}`)');
    return [r, eval('({ ...{ a: y }, b: z })')];
}
outer(1)
