const re = /(?<k>\w+)=(?<v>\d+)/g;
const out = [];
let m;
while ((m = re.exec('a=1 b=22')) !== null) out.push(m.groups.k + m.groups.v);
out
