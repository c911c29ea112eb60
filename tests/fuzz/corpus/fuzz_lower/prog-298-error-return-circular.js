const node = { name: "a" };
node.self = node;
console.log("returning a cycle");
return node;
