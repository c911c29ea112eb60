// String building with +=: a CSV of 20,000 rows, a markdown table, one char at a time.
const t0 = Date.now();
let csv = 'id,name,city,amount\n';
for (let i = 0; i < 20000; i++) {
    csv += i + ',' + 'name' + (i % 1000) + ',' + (i % 2 ? 'Paris' : 'Oslo') + ',' + ((i * 13) % 1000) / 4 + '\n';
}
let md = '';
for (let i = 0; i < 5000; i++) md += `| ${i} | item ${i % 50} | ${(i * 7) % 100} |\n`;
let s = '';
for (let i = 0; i < 100000; i++) s += String.fromCharCode(97 + (i % 26));
return { ms: Date.now() - t0, check: [csv.length, md.length, s.length, csv.charCodeAt(csv.length - 2), s.slice(-3)] };
