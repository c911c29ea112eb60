async function load() {
  await sleep(5);
  return Promise.reject(new RangeError("page out of range"));
}
console.log("loading");
const data = await load();
return data;
