const line = "2024-03-15T10:20:30Z user=alice action=login ip=10.0.0.7";
const re = /^(?<date>\d{4}-\d{2}-\d{2})T(?<time>[\d:]+)Z user=(?<user>\w+) action=(?<action>\w+)/;
const m = line.match(re);
const { date, user, action } = m.groups;
const swapped = "2024-03-15".replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/, "$<d>/$<m>/$<y>");
const pairs = {};
for (const { groups: { k, v } } of line.matchAll(/(?<k>\w+)=(?<v>[\w.]+)/g)) pairs[k] = v;
const fnReplace = "price: 10 USD, 25 USD".replace(/(?<amount>\d+) USD/g, (...args) => {
  const groups = args.at(-1);
  return `${(Number(groups.amount) * 0.9).toFixed(2)} EUR`;
});
return { date, user, action, time: m.groups.time, swapped, pairs, fnReplace };
