const winner = await Promise.race([
  tools.slow.wait({ ms: 600, label: "slow" }),
  tools.slow.wait({ ms: 30, label: "fast" }),
  tools.slow.wait({ ms: 300, label: "medium" }),
]);
console.log(`winner: ${winner.label}`);
return winner;
