// Sorting 60,000 objects by two keys (string then number; number then id).
const t0 = Date.now();
const people = [];
for (let i = 0; i < 60000; i++)
    people.push({ last: 'name' + ((i * 7919) % 2003), first: 'f' + ((i * 31) % 97), age: (i * 13) % 90, id: i });
people.sort((a, b) => (a.last < b.last ? -1 : a.last > b.last ? 1 : a.age - b.age));
const byAge = people.slice().sort((a, b) => a.age - b.age || a.id - b.id);
return { ms: Date.now() - t0, check: [people[0].id, people[59999].id, people[30000].last, byAge[0].id, byAge[59999].id] };
