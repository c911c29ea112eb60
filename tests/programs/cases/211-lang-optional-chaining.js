const data = {
  user: { profile: { emails: ["a@x.io"] }, greet() { return "hi"; } },
  list: null,
};
return {
  email: data.user?.profile?.emails?.[0],
  missing: data.user?.settings?.theme,
  listLen: data.list?.length,
  call: data.user.greet?.(),
  noMethod: data.user.farewell?.(),
  deep: data?.a?.b?.c?.d ?? "default",
  dynamic: data.user?.["profile"]?.["emails"]?.length,
  onNull: null?.x,
  shortCircuit: (() => { let n = 0; const o = null; o?.[n++]; return n; })(),
};
