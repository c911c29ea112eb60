// Loopback ports for servers a test starts itself (fixture HTTP servers,
// nginx): a free port to hand them, and a wait until something accepts on it.
import net from 'node:net';

/** A free loopback port: bound, then released for the caller's server to bind. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once a connection to 127.0.0.1:port succeeds; rejects after `ms`. */
export async function listening(port, ms = 20000) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    const ok = await new Promise((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => { c.destroy(); resolve(true); });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}
