const ns = "p080";
const events = [["ana", 30], ["ben", 12], ["ana", 5], ["caz", 40], ["ben", 33], ["dee", 7], ["caz", 1]];
for (const [player, points] of events) await tools.kv.incr({ ns, key: `score:${player}`, by: points });
const { keys } = await tools.kv.list({ ns, prefix: "score:", limit: 50 });
const scores = await Promise.all(keys.map(async (key) => ({ player: key.split(":")[1], score: (await tools.kv.get({ ns, key })).value })));
scores.sort((a, b) => b.score - a.score || a.player.localeCompare(b.player));
scores.forEach(({ player, score }, i) => console.log(`${i + 1}. ${player} ${score}`));
return scores.slice(0, 3).map((s) => s.player);
