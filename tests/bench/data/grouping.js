// Nested grouping: 50,000 sales into region > category > month, then summaries.
const t0 = Date.now();
const regions = ['north', 'south', 'east', 'west', 'central'];
const cats = ['books', 'tools', 'food', 'toys', 'garden', 'music', 'sport'];
const sales = [];
for (let i = 0; i < 50000; i++)
    sales.push({ region: regions[i % 5], cat: cats[(i * 3) % 7], month: 1 + (i % 12), amount: (i * 37) % 500, qty: 1 + (i % 4) });
const tree = {};
for (const s of sales) {
    const r = tree[s.region] || (tree[s.region] = {});
    const c = r[s.cat] || (r[s.cat] = {});
    const m = c[s.month] || (c[s.month] = { total: 0, qty: 0, n: 0 });
    m.total += s.amount; m.qty += s.qty; m.n++;
}
const out = Object.entries(tree).map(([region, byCat]) => ({
    region,
    cats: Object.entries(byCat).map(([cat, byMonth]) => ({
        cat,
        total: Object.values(byMonth).reduce((a, m) => a + m.total, 0),
        best: Object.keys(byMonth).reduce((b, k) => (byMonth[k].total > byMonth[b].total ? k : b)),
    })).sort((a, b) => b.total - a.total),
}));
const grouped = sales.reduce((acc, s) => { (acc[s.cat] ||= []).push(s.amount); return acc; }, {});
const avg = Object.fromEntries(Object.entries(grouped).map(([k, v]) => [k, v.reduce((a, b) => a + b, 0) / v.length]));
return { ms: Date.now() - t0, check: [out.length, out[0].cats[0].cat, out[0].cats[0].total, out[4].cats[6].best, Math.round(avg.food)] };
