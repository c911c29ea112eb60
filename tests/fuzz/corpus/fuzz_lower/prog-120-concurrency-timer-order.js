const order = [];
await new Promise((resolve) => {
  setTimeout(() => order.push("c@100"), 100);
  setTimeout(() => order.push("a@20"), 20);
  setTimeout(() => { order.push("b@60"); }, 60);
  setTimeout(resolve, 160);
});
return order;
