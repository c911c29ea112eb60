// PostgreSQL for the e2e tests (tests/lib/pg_cluster.sh): with
// MCP_CODEMODE_TEST_STORE=postgres, the state and skills suites write
// codemode.store into their configs, one database per config, on a cluster
// given by MCP_CODEMODE_TEST_PG_DIR (started by the caller: `make test`), or
// else started here in a temporary directory and stopped when the process
// exits. Also used directly by the PostgreSQL-only tests (store-pg.test.mjs).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './paths.mjs';

const SCRIPT = path.join(REPO_ROOT, 'tests/lib/pg_cluster.sh');

/** Whether initdb and pg_ctl are installed. */
export function pgAvailable() {
  try {
    execFileSync('sh', [SCRIPT, 'available'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The state suites run against PostgreSQL (MCP_CODEMODE_TEST_STORE=postgres). */
export const ON_POSTGRES = process.env.MCP_CODEMODE_TEST_STORE === 'postgres';

/** A cluster: {dir, port, psql(sql, db), stop(), restart(), url(db, user)}. */
export function startCluster(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-codemode-pg-'))) {
  const port = Number(execFileSync('sh', [SCRIPT, 'start', dir], { encoding: 'utf8' }).trim());
  return clusterAt(dir, port, true);
}

function clusterAt(dir, port, owned) {
  const c = {
    dir,
    port,
    psql: (sql, db = 'codemode') => execFileSync('sh', [SCRIPT, 'psql', dir, sql, db], { encoding: 'utf8' }),
    stop: () => execFileSync('sh', [SCRIPT, 'stop', dir]),
    restart: () => execFileSync('sh', [SCRIPT, 'restart', dir]),
    /** A URL for db as user (the role codemode has the password "secret": ${PGPASSWORD}). */
    url: (db = 'codemode', user = 'postgres') => `postgresql://${user}@127.0.0.1:${port}/${db}`,
    /** A new empty database owned by codemode; returns its name. */
    database: (name) => {
      const db = name.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 60);
      c.psql(`DROP DATABASE IF EXISTS ${db}`, 'postgres');
      c.psql(`CREATE DATABASE ${db} OWNER codemode`, 'postgres');
      return db;
    },
  };
  if (owned) {
    process.on('exit', () => {
      try {
        c.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      } catch {}
    });
  }
  return c;
}

let shared;
/** The cluster of this process (MCP_CODEMODE_TEST_PG_DIR's, or one started on first use). */
export function sharedCluster() {
  if (shared) return shared;
  const dir = process.env.MCP_CODEMODE_TEST_PG_DIR;
  shared = dir ? clusterAt(dir, Number(fs.readFileSync(path.join(dir, 'port'), 'utf8')), false) : startCluster();
  return shared;
}

/** codemode.store for a test's database `name` (created empty). */
export function storeFor(name) {
  const c = sharedCluster();
  return { url: c.url(c.database(`t_${name}`)), connectTimeoutMs: 3000 };
}
