type Event =
  | { type: "click"; x: number; y: number }
  | { type: "key"; key: string; shift?: boolean }
  | { type: "scroll"; delta: number };
const events: Event[] = [
  { type: "click", x: 10, y: 20 },
  { type: "key", key: "a" },
  { type: "scroll", delta: -120 },
  { type: "key", key: "b", shift: true },
  { type: "click", x: 0, y: 5 },
];
const handlers: { [K in Event["type"]]: (e: Extract<Event, { type: K }>) => string } = {
  click: (e) => `click@${e.x},${e.y}`,
  key: (e) => (e.shift ? e.key.toUpperCase() : e.key),
  scroll: (e) => (e.delta < 0 ? "up" : "down"),
};
const out = events.map((e) => (handlers[e.type] as (e: Event) => string)(e));
const counts = events.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e.type]: (acc[e.type] ?? 0) + 1 }), {});
return { out, counts };
