const m = /(?<year>\d{4})-(?<month>\d{2})/.exec('on 2024-05 ok');
const s = '2024-05'.replace(/(?<y>\d+)-(?<m>\d+)/, '$<m>/$<y>');
const t = '2024-05'.match(/(?<y>\d+)-(?<m>\d+)/).groups.m;
[m.groups.year, m.groups.month, m.index, s, t]
