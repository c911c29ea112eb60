try {
  throw new Error("original");
} finally {
  console.log("cleanup failed too");
  throw new Error("from finally");
}
