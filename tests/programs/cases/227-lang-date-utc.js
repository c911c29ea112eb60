const d = new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 250));
const next = new Date(d.getTime() + 1000);
const addMonths = (date, n) => {
  const r = new Date(date.getTime());
  r.setUTCMonth(r.getUTCMonth() + n);
  return r;
};
const iso = (x) => x.toISOString();
const weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const start = Date.UTC(2024, 0, 1);
const daysTo = (y, m, day) => (Date.UTC(y, m, day) - start) / 86400000;
return {
  iso: iso(d),
  next: iso(next),
  weekday: weekdays[d.getUTCDay()],
  plusOneMonth: iso(addMonths(d, 1)).slice(0, 10),
  plusTwelve: iso(addMonths(new Date(start), 12)).slice(0, 10),
  dayOfYear: daysTo(2024, 11, 31) + 1,
  parsed: Date.parse("2024-07-04T12:00:00Z"),
  json: JSON.stringify({ when: new Date(0) }),
  invalid: isNaN(new Date("not a date").getTime()),
  ms: d.getUTCMilliseconds(),
};
