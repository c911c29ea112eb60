// Monotonic time in milliseconds (fractional, nanosecond source) and sleep.
export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
