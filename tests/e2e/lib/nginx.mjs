// nginx in front of mcp-codemode instances, as docs/deploy.md sets it up (on
// loopback, without TLS): the binary, and a run of it in a directory of its
// own from the upstreams and server blocks a test writes.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sleep } from './raw.mjs';

/** The nginx binary, or undefined when it is not installed. */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => spawnSync(p, ['-v']).status === 0);

/**
 * Starts nginx with `http` (upstream, map and server blocks) inside its http
 * block, and waits until 127.0.0.1:port answers. Resolves with { stop() };
 * rejects with nginx's own words when it does not start.
 */
export async function startNginx(port, http) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-codemode-nginx-'));
  writeFileSync(path.join(dir, 'nginx.conf'), `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  ${http}
}
`);
  const proc = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  };
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/nope`)).status === 404) return { stop };
    } catch {}
    if (i > 100 || proc.exitCode !== null) {
      await stop();
      let log = '';
      try {
        log = readFileSync(path.join(dir, 'error.log'), 'utf8');
      } catch {}
      throw new Error(`nginx did not start: ${err}${log}`);
    }
    await sleep(50);
  }
}
