const settings = { retries: 0, name: "", verbose: false, timeout: null };
return {
  retriesOr: settings.retries || 3,
  retriesNullish: settings.retries ?? 3,
  nameOr: settings.name || "anon",
  nameNullish: settings.name ?? "anon",
  verbose: settings.verbose ?? true,
  timeout: settings.timeout ?? 1000,
  missing: settings.missing ?? "none",
  chained: settings.timeout ?? settings.missing ?? "last",
  mixed: (settings.name || null) ?? "fallback",
};
