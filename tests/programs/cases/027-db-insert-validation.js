// Try to insert a few users; collect which ones the database rejects.
const candidates = [
  { name: "New Person", email: "new.person@example.com", country: "PT", plan: "free", signup: "2024-05-01", active: true },
  { name: "Dup Email", email: "hana.petrov1@example.com", country: "US", plan: "pro", signup: "2024-05-02", active: true },
  { name: "No Plan", email: "no.plan@example.com", country: "DE", signup: "2024-05-03", active: false },
];
const results = [];
for (const row of candidates) {
  try {
    const r = await tools.db.insert({ table: "users", row });
    results.push(`${row.name}: inserted as #${r.id}${r.dry_run ? " (dry run)" : ""}`);
  } catch (e) {
    results.push(`${row.name}: ${e.message}`);
  }
}
results.forEach((r) => console.log(r));
return results.length;
