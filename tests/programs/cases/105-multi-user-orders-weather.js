// For one user: profile, order history and the weather where they are.
const userId = 17;
const cityByCountry = { US: "Toronto", DE: "Berlin", FR: "Lisbon", BR: "Lima", IN: "Mumbai", JP: "Tokyo", GB: "Reykjavik", CA: "Toronto" };
const [{ rows: [user] }, orders] = await Promise.all([
  tools.db.select({ table: "users", where: { id: userId } }),
  tools.db.select({ table: "orders", where: { user_id: userId }, order_by: "created", limit: 100 }),
]);
const weather = await tools.weather.current({ city: cityByCountry[user.country] });
return {
  name: user.name,
  country: user.country,
  orders: orders.total,
  spent: orders.rows.filter((o) => o.status === "paid").reduce((s, o) => s + o.total_cents, 0) / 100,
  lastOrder: orders.rows.at(-1)?.created.slice(0, 10) ?? null,
  weather: `${weather.temp}°C ${weather.conditions} in ${weather.city}`,
};
