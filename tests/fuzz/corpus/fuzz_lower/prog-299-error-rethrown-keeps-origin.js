let original;
try {
  original = new Error("first failure");
  throw original;
} catch (e) {
  console.error("logging and rethrowing:", e.message);
  e.message += " (rethrown)";
  throw e;
}
