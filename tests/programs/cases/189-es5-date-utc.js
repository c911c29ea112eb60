var start = Date.UTC(2024, 1, 27, 12, 0, 0);
var days = [];
for (var i = 0; i < 4; i++) {
  var d = new Date(start + i * 86400000);
  days.push(d.toISOString().slice(0, 10) + ' dow=' + d.getUTCDay());
}
console.log(days.join('; '));
var leap = new Date(Date.UTC(2024, 1, 29));
var parsed = new Date('2024-03-10T08:30:00Z');
return {
  leapDay: leap.getUTCDate(),
  month: parsed.getUTCMonth() + 1,
  hours: parsed.getUTCHours(),
  diffDays: (parsed.getTime() - start) / 86400000,
  iso: new Date(0).toISOString()
};
