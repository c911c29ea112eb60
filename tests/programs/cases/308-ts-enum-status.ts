enum Status {
  Pending,
  Active,
  Suspended = 10,
  Closed,
}
enum Color {
  Red = "red",
  Green = "green",
}
const s: Status = Status.Suspended;
const label = (st: Status): string => {
  switch (st) {
    case Status.Pending: return "waiting";
    case Status.Active: return "live";
    default: return Status[st].toLowerCase();
  }
};
return {
  values: [Status.Pending, Status.Active, Status.Suspended, Status.Closed],
  reverse: Status[11],
  labels: [Status.Pending, Status.Active, s, Status.Closed].map(label),
  color: Color.Green,
  colorKeys: Object.keys(Color),
};
