interface Logger { log(msg: string): void; lines(): readonly string[] }
interface Clock { now(): number }
class MemoryLogger implements Logger {
  private readonly buf: string[] = [];
  constructor(private clock: Clock) {}
  log(msg: string): void { this.buf.push(`[${this.clock.now()}] ${msg}`); }
  lines(): readonly string[] { return this.buf; }
}
class FakeClock implements Clock {
  private t = 1000;
  now(): number { return (this.t += 250); }
}
const logger: Logger = new MemoryLogger(new FakeClock());
for (const step of ["start", "work", "stop"]) logger.log(step);
return logger.lines();
