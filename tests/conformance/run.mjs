// Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned in tests/package.json: 0.1.16, and 0.2.0-alpha.12 installed under the
// alias conformance-alpha) against our Streamable HTTP endpoint: starts
// $MCP_CODEMODE_BIN (default build/mcp-codemode) with --http localhost:0, runs
// every scenario below with each package (its dist/index.js, on Node 20
// through node20-hook.mjs), reads each run's checks.json (not the coloured
// stdout) and fails on any FAILURE that is not a documented inapplicable
// check; WARNINGs are printed. The server must then exit 0 on SIGTERM with no
// sanitizer report.
//
//   node tests/conformance/run.mjs [--filter SUBSTRING]... [--jobs N] [--keep]
// Exit status 0 when every scenario passed, 1 otherwise, 2 on a usage or start-up error.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGES, TESTS, cli as packageCli } from './packages.mjs';
import { BIN } from '../e2e/lib/paths.mjs';

const SCENARIO_TIMEOUT_MS = 90000;
const cli = (pkg, args) => packageCli(pkg, args, SCENARIO_TIMEOUT_MS);

// Scenarios of the dated revisions (the client negotiates 2025-11-25). The
// others of those revisions call the suite's own test server's fixtures
// (tools test_simple_text..., prompts, test:// resources, sampling,
// elicitation, completions): see the fit table of the research notes.
const DATED = [
  'server-initialize', 'ping', 'tools-list', 'logging-set-level', 'resources-list',
  'server-sse-multiple-streams', 'dns-rebinding-protection',
];

// The alpha's 2026-07-28 server scenarios (`list --server --spec-version
// 2026-07-28`) that apply to a server with tools and resources. Each is run
// with --spec-version 2026-07-28 (stateless requests, MCP-Protocol-Version,
// Mcp-Method and Mcp-Name headers).
const MODERN = [
  'server-stateless', // _meta validation, server/discover, -32022, -32020, 404/-32601, listen streams
  'tools-list',
  'server-sse-multiple-streams',
  'resources-list',
  'sep-2164-resource-not-found', // resources/read of an unknown URI: -32602 with data.uri
  'dns-rebinding-protection',
  'caching', // ttlMs and cacheScope on list and read results
  'http-header-validation', // pending in the alpha: Mcp-Method / Mcp-Name / version header checks
];

// Every other 2026-07-28 (and extension) server scenario the alpha lists, and
// why it does not apply to us. The run fails if `list` shows one that is in
// neither list, so a new pin cannot silently skip scenarios.
const MODERN_EXCLUDED = {
  'completion-complete': 'completion/complete on the suite\'s prompt test_prompt_with_arguments; we declare no completions capability (and answer -32601)',
  'tools-call-simple-text': 'calls the suite\'s tool test_simple_text; our only tool is execute_code (an unknown tool is -32602)',
  'tools-call-image': 'calls the suite\'s tool test_image_content',
  'tools-call-audio': 'calls the suite\'s tool test_audio_content',
  'tools-call-embedded-resource': 'calls the suite\'s tool test_embedded_resource',
  'tools-call-mixed-content': 'calls the suite\'s tool test_multiple_content_types',
  'tools-call-error': 'calls the suite\'s tool test_error_handling',
  'tools-call-with-progress': 'calls the suite\'s tool test_tool_with_progress (our progress over SSE is covered by tests/e2e/http-execute.test.mjs)',
  'json-schema-2020-12': 'pending; looks for the suite\'s tool json_schema_2020_12_tool in tools/list',
  'resources-read-text': 'reads the suite\'s resource test://static-text',
  'resources-read-binary': 'reads the suite\'s resource test://static-binary',
  'resources-templates-read': 'reads the suite\'s template test://template/{id}/data',
  'prompts-list': 'prompts: we declare no prompts capability (prompts/list is -32601)',
  'prompts-get-simple': 'prompts: the suite\'s prompt test_simple_prompt',
  'prompts-get-with-args': 'prompts: the suite\'s prompt test_prompt_with_arguments',
  'prompts-get-embedded-resource': 'prompts: the suite\'s prompt test_prompt_with_embedded_resource',
  'prompts-get-with-image': 'prompts: the suite\'s prompt test_prompt_with_image',
  'http-custom-header-server-validation': 'pending; needs a tool whose inputSchema has x-mcp-header annotations (execute_code has none): every check reports "untestable"',
  'input-required-result-basic-elicitation': 'MRTR: the suite\'s tool test_input_required_result_elicitation; our server never asks the client for input (no elicitation, sampling or roots), so it never returns an InputRequiredResult',
  'input-required-result-basic-sampling': 'MRTR: the suite\'s tool test_input_required_result_sampling',
  'input-required-result-basic-list-roots': 'MRTR: the suite\'s tool test_input_required_result_list_roots',
  'input-required-result-request-state': 'MRTR: the suite\'s tool test_input_required_result_request_state',
  'input-required-result-multiple-input-requests': 'MRTR: the suite\'s tool test_input_required_result_multiple_inputs',
  'input-required-result-multi-round': 'MRTR: the suite\'s multi-round test tool',
  'input-required-result-missing-input-response': 'MRTR: only a WARNING against an unknown-tool error; nothing about our server is tested',
  'input-required-result-non-tool-request': 'MRTR through prompts/get: we have no prompts',
  'input-required-result-result-type': 'MRTR: the suite\'s tool test_input_required_result_elicitation',
  'input-required-result-unsupported-methods': 'MRTR: passes vacuously (we never return an InputRequiredResult at all)',
  'input-required-result-tampered-state': 'MRTR: needs an initial InputRequiredResult with requestState',
  'input-required-result-capability-check': 'MRTR: the suite\'s tool test_input_required_result_capabilities',
  'input-required-result-ignore-extra-params': 'MRTR: the suite\'s tool test_input_required_result_elicitation (a WARNING against an unknown-tool error)',
  'input-required-result-validate-input': 'MRTR: passes vacuously against an unknown-tool -32602',
  'sep-2640-skills-directory': 'extension (skills): we offer no skills; the suite runs no check',
  'sep-2640-skills-enumeration': 'extension (skills)',
  'sep-2640-skills-manifest': 'extension (skills)',
  'tasks-lifecycle': 'extension (tasks): we do not declare the tasks extension; the suite runs no check',
  'tasks-capability-negotiation': 'extension (tasks)',
  'tasks-wire-fields': 'extension (tasks)',
  'tasks-request-state-removal': 'extension (tasks)',
  'tasks-mrtr-input': 'extension (tasks)',
  'tasks-request-headers': 'extension (tasks)',
  'tasks-dispatch-and-envelope': 'extension (tasks)',
  'tasks-status-notifications': 'extension (tasks)',
  'tasks-required-task-error': 'extension (tasks)',
  'tasks-mrtr-composition': 'extension (tasks)',
};

/** A check the suite reports as FAILURE because it needs one of its own diagnostic tools. */
const untestable = (tool) => (c) => c.details?.untestable === true && (c.errorMessage ?? '').includes(tool);

// Single checks inside an applicable scenario that cannot apply to us, with
// the exact condition under which their FAILURE is accepted (anything else
// about them still fails the run).
const INAPPLICABLE_CHECKS = {
  'server-stateless': {
    // -32021 needs a tool that requires a client capability; ours needs none.
    'sep-2575-server-rejects-undeclared-capability': untestable('test_missing_capability'),
    'sep-2575-missing-capability-http-400': untestable('test_missing_capability'),
    // Needs a tool that elicits mid-stream; we never send requests to the client.
    'sep-2575-http-server-no-independent-requests-on-stream': untestable('test_streaming_elicitation'),
    // Needs the suite's logging tool (our logLevel rule is tested in tests/e2e/http-execute.test.mjs).
    'sep-2575-server-no-log-without-loglevel': untestable('test_logging_tool'),
  },
  caching: {
    // The scenario calls prompts/list whatever the capabilities: without the
    // prompts capability -32601 is the right answer (server/prompts.mdx).
    'sep-2549-prompts-list-caching-hints': (c) => c.details?.error?.code === -32601,
  },
};

const RUNS = [
  { pkg: 'stable', scenarios: DATED },
  { pkg: 'alpha', scenarios: [...DATED, 'server-session-lifecycle'] },
  { pkg: 'alpha', spec: '2026-07-28', scenarios: MODERN },
];

// ---- arguments ----------------------------------------------------------------------------------

function usage(msg) {
  if (msg) console.error(`run.mjs: ${msg}`);
  console.error('usage: node tests/conformance/run.mjs [--filter SUBSTRING]... [--jobs N] [--keep]');
  process.exit(2);
}

function parseArgs(argv) {
  const o = { filter: [], jobs: 2, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--filter' && argv[i + 1] !== undefined) o.filter.push(argv[++i]);
    else if (a === '--jobs' && Number(argv[i + 1]) >= 1) o.jobs = Number(argv[++i]);
    else if (a === '--keep') o.keep = true;
    else usage(`unknown argument ${a}`);
  }
  return o;
}

// ---- the conformance CLIs ---------------------------------------------------------------------

function checkPackages() {
  for (const [name, p] of Object.entries(PACKAGES)) {
    const file = path.join(TESTS, p.dir, 'package.json');
    if (!fs.existsSync(file)) usage(`${p.dir} is missing: run (cd tests && npm ci)`);
    const v = JSON.parse(fs.readFileSync(file, 'utf8')).version;
    if (v !== p.version) usage(`${name}: ${p.dir} is ${v}, expected ${p.version} (run npm ci)`);
  }
}

/** Fails when the alpha lists a 2026-07-28 or extension server scenario we have not classified. */
async function unclassifiedScenarios() {
  const { code, out } = await cli('alpha', ['list', '--server']);
  if (code !== 0) throw new Error(`conformance list failed (${code}):\n${out}`);
  const known = new Set([...MODERN, ...Object.keys(MODERN_EXCLUDED)]);
  const listed = [...out.matchAll(/^\s*- (\S+) \[([^\]]*)\]/gm)]
    .filter((m) => /2026-07-28|extension/.test(m[2])).map((m) => m[1]);
  if (listed.length === 0) throw new Error(`conformance list printed no 2026-07-28 scenario:\n${out}`);
  return listed.filter((s) => !known.has(s));
}

// ---- the server under test ----------------------------------------------------------------------

function startServer() {
  const proc = spawn(BIN, ['--http', 'localhost:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const server = { proc, stderr: '' };
  server.exit = new Promise((resolve) => proc.on('exit', (code, signal) => resolve(code ?? signal)));
  return new Promise((resolve, reject) => {
    proc.stderr.on('data', (b) => {
      server.stderr += b;
      const m = /listening on (http:\/\/\S+)/.exec(server.stderr);
      if (m && !server.url) resolve(Object.assign(server, { url: `${m[1]}/mcp` }));
    });
    server.exit.then((e) => reject(new Error(`${BIN} exited (${e}) before listening:\n${server.stderr}`)));
  });
}

/** SIGTERM; the problems with how it ended (status, sanitizer reports). */
async function stopServer(server) {
  server.proc.kill('SIGTERM');
  const timer = setTimeout(() => server.proc.kill('SIGKILL'), 15000);
  const status = await server.exit;
  clearTimeout(timer);
  const problems = [];
  if (status !== 0) problems.push(`server exited with ${status}`);
  if (/Sanitizer|runtime error:/.test(server.stderr)) problems.push(`sanitizer report:\n${server.stderr.slice(0, 3000)}`);
  return problems;
}

// ---- one scenario -------------------------------------------------------------------------------

function readChecks(dir) {
  const runs = fs.existsSync(dir) ? fs.readdirSync(dir).filter((d) => fs.existsSync(path.join(dir, d, 'checks.json'))) : [];
  if (runs.length !== 1) return null;
  return JSON.parse(fs.readFileSync(path.join(dir, runs[0], 'checks.json'), 'utf8'));
}

/** Runs a scenario; resolves with {label, checks, failures, warnings, accepted, error}. */
async function runScenario(url, outRoot, run, scenario) {
  const label = `${PACKAGES[run.pkg].version}${run.spec ? ` @${run.spec}` : ''} ${scenario}`;
  const dir = path.join(outRoot, `${run.pkg}${run.spec ? `-${run.spec}` : ''}`, scenario);
  const args = ['server', '--url', url, '--scenario', scenario, '-o', dir];
  if (run.spec) args.push('--spec-version', run.spec);
  const { code, out } = await cli(run.pkg, args);
  const checks = readChecks(dir);
  const r = { label, checks: checks ?? [], failures: [], warnings: [], accepted: [] };
  if (!checks || checks.length === 0) return { ...r, error: `no checks.json with checks (exit ${code}):\n${out.slice(-3000)}` };
  const allowed = INAPPLICABLE_CHECKS[scenario] ?? {};
  for (const c of checks) {
    if (c.status === 'WARNING') r.warnings.push(c);
    if (c.status !== 'FAILURE') continue;
    (allowed[c.id]?.(c) ? r.accepted : r.failures).push(c);
  }
  if (code !== 0 && r.failures.length === 0 && r.accepted.length === 0) r.error = `exit ${code} with no FAILURE check:\n${out.slice(-3000)}`;
  return r;
}

function count(checks, status) {
  return checks.filter((c) => c.status === status).length;
}

function report(r) {
  const ok = !r.error && r.failures.length === 0;
  const n = `${count(r.checks, 'SUCCESS')} passed, ${r.failures.length} failed, ${r.warnings.length} warnings` +
    (r.accepted.length ? `, ${r.accepted.length} inapplicable` : '');
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${r.label}: ${n}`);
  for (const c of r.failures) console.log(`     FAILURE ${c.id}: ${c.errorMessage ?? ''}\n       ${JSON.stringify(c.details ?? {}).slice(0, 600)}`);
  for (const c of r.warnings) console.log(`     warning ${c.id}: ${c.errorMessage ?? ''}`);
  for (const c of r.accepted) console.log(`     inapplicable ${c.id}: ${c.errorMessage ?? ''}`);
  if (r.error) console.log(`     ${r.error.replace(/\n/g, '\n     ')}`);
  return ok;
}

/** Runs the tasks `jobs` at a time, in order of the list; resolves with their results. */
async function pool(tasks, jobs) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return results;
}

// ---- main ---------------------------------------------------------------------------------------

async function main() {
  const o = parseArgs(process.argv.slice(2));
  checkPackages();
  const unclassified = await unclassifiedScenarios();
  const server = await startServer();
  const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
  const started = Date.now();
  console.log(`conformance: ${BIN} at ${server.url}; results in ${outRoot}`);
  const tasks = [];
  for (const run of RUNS) {
    for (const s of run.scenarios) {
      const label = `${run.pkg} ${run.spec ?? ''} ${s}`;
      if (o.filter.length && !o.filter.some((f) => label.includes(f))) continue;
      tasks.push(() => runScenario(server.url, outRoot, run, s));
    }
  }
  const results = await pool(tasks, o.jobs);
  let ok = results.map(report).every(Boolean);
  for (const s of unclassified) {
    console.log(`FAIL the alpha lists the 2026-07-28 scenario ${s}: add it to MODERN or MODERN_EXCLUDED in run.mjs`);
    ok = false;
  }
  const problems = await stopServer(server);
  for (const p of problems) console.log(`FAIL ${p}`);
  ok &&= problems.length === 0;
  const failed = results.filter((r) => r.error || r.failures.length).length;
  console.log(`conformance: ${results.length - failed}/${results.length} scenario runs passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (ok && !o.keep) fs.rmSync(outRoot, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}

main().catch((e) => {
  console.error(`run.mjs: ${e.stack ?? e}`);
  process.exit(2);
});
