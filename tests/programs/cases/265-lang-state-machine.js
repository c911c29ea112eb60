const transitions = {
  idle: { start: "running" },
  running: { pause: "paused", stop: "stopped", fail: "error" },
  paused: { resume: "running", stop: "stopped" },
  error: { reset: "idle" },
  stopped: {},
};
function run(events) {
  let state = "idle";
  const history = [state];
  for (const ev of events) {
    const next = transitions[state]?.[ev];
    if (!next) {
      history.push(`!${ev}`);
      continue;
    }
    state = next;
    history.push(state);
  }
  return { state, history };
}
return [
  run(["start", "pause", "resume", "stop"]),
  run(["start", "fail", "reset", "start"]),
  run(["pause", "start", "start", "stop", "start"]),
];
