// Build a month calendar for June 2024 (UTC).
const year = 2024, month = 5;
const first = new Date(Date.UTC(year, month, 1));
const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
const weeks = [];
let week = new Array(first.getUTCDay()).fill("  ");
for (let day = 1; day <= days; day++) {
  week.push(String(day).padStart(2, " "));
  if (week.length === 7) { weeks.push(week.join(" ")); week = []; }
}
if (week.length) weeks.push(week.join(" "));
console.log("Su Mo Tu We Th Fr Sa");
weeks.forEach((w) => console.log(w));
return { days, weeks: weeks.length, firstWeekday: first.getUTCDay() };
