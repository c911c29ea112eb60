const items = ["a", "b", "c"];
for (const item of items) console.log("processing", item);
console.warn("about to fail");
throw new Error(`failed after ${items.length} items`);
