// The scripted host's tool logic, shared by the MCP server (server.mjs, one
// persona per process) and by the recorder (record.mjs, in-process). Each
// persona has tools with JSON Schemas; a call waits a delay fixed by its
// arguments (so concurrent calls finish out of order, the same way each run)
// and answers a CallToolResult built from the deterministic data in data.mjs.
// Stateful tools (kv, flaky.fetch, slow.enter) are partitioned by a key the
// program chooses, so programs running at the same time do not meet.
import { fnv, GH, GH_USERS, issueBody, DB, DB_COLUMNS, FS, fileSize, fileModified, CITIES, weatherDay,
    ALERTS, PAGES, MAIL, TEXT_SAMPLES } from './data.mjs';

// ---- result helpers -------------------------------------------------------------------

const text = (s) => ({ content: [{ type: 'text', text: s }] });
const json = (v) => text(JSON.stringify(v));
const structured = (v, summary) => ({
    content: [{ type: 'text', text: summary ?? JSON.stringify(v) }],
    structuredContent: v,
});
const fail = (msg) => ({ content: [{ type: 'text', text: msg }], isError: true });

/** The delay of one call: 5-40 ms, a pure function of the call. */
export function delayFor(persona, tool, args) {
    return 5 + (fnv(`${persona}.${tool}:${JSON.stringify(args)}`) % 36);
}

// ---- schema fragments ---------------------------------------------------------------------

const str = (extra = {}) => ({ type: 'string', ...extra });
const int = (extra = {}) => ({ type: 'integer', ...extra });
const obj = (properties, required = [], extra = {}) => ({ type: 'object', properties, required, additionalProperties: false, ...extra });
const page = { page: int({ minimum: 1, default: 1, description: 'Page number, from 1' }) };
const REPO = str({ pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$', description: 'owner/name' });

function paginate(items, pageNo = 1, perPage = 30) {
    const start = (pageNo - 1) * perPage;
    return items.slice(start, start + perPage);
}

// ---- github -------------------------------------------------------------------------------

const repoSchema = obj({
    name: str(), full_name: str(), stars: int(), language: str(), archived: { type: 'boolean' },
    open_issues: int(), default_branch: str(),
}, ['name', 'full_name', 'stars', 'language', 'archived', 'open_issues', 'default_branch']);
const issueSchema = obj({
    number: int(), title: str(), body: str(), state: { enum: ['open', 'closed'] },
    labels: { type: 'array', items: str() }, author: str(), assignees: { type: 'array', items: str() },
    comments: int(), created_at: str({ format: 'date-time' }),
    closed_at: { type: ['string', 'null'] }, url: str(),
}, ['number', 'title', 'state', 'labels', 'author', 'comments', 'created_at']);

function findRepo(full) {
    return GH.repos[full];
}
const noRepo = (full) => fail(`Not Found: repository ${full} does not exist or you do not have access`);

const github = [
    {
        name: 'list_repos',
        description: 'List the repositories of an organization, 10 per page by default.',
        inputSchema: obj({ org: str({ minLength: 1 }), ...page, per_page: int({ minimum: 1, maximum: 50, default: 10 }),
            include_archived: { type: 'boolean', default: true } }, ['org']),
        outputSchema: obj({ repos: { type: 'array', items: repoSchema }, page: int(), total: int(),
            next_page: { type: ['integer', 'null'] } }, ['repos', 'page', 'total', 'next_page']),
        run({ org, page: p = 1, per_page = 10, include_archived = true }) {
            let repos = GH.orgs[org];
            if (!repos) return fail(`Not Found: organization ${org}`);
            if (!include_archived) repos = repos.filter((r) => !r.archived);
            const items = paginate(repos, p, per_page);
            const next = p * per_page < repos.length ? p + 1 : null;
            return structured({ repos: items, page: p, total: repos.length, next_page: next },
                `${items.length} of ${repos.length} repositories of ${org} (page ${p})`);
        },
    },
    {
        name: 'list_issues',
        description: 'List issues of a repository, newest first (GitHub REST shape, JSON text).',
        inputSchema: obj({
            repo: REPO, state: { enum: ['open', 'closed', 'all'], default: 'open' },
            labels: { type: 'array', items: str(), description: 'only issues with all of these labels' },
            ...page, per_page: int({ minimum: 1, maximum: 100, default: 30 }),
        }, ['repo']),
        run({ repo, state = 'open', labels = [], page: p = 1, per_page = 30 }) {
            const r = findRepo(repo);
            if (!r) return noRepo(repo);
            const list = r.issues.filter((i) => (state === 'all' || i.state === state) &&
                labels.every((l) => i.labels.includes(l))).slice().reverse();
            return json(paginate(list, p, per_page).map((i) => ({ number: i.number, title: i.title, state: i.state,
                labels: i.labels, author: i.author, comments: i.comments, created_at: i.created_at })));
        },
    },
    {
        name: 'get_issue',
        description: 'Get one issue with its body.',
        inputSchema: obj({ repo: REPO, number: int({ minimum: 1 }) }, ['repo', 'number']),
        outputSchema: issueSchema,
        run({ repo, number }) {
            const r = findRepo(repo);
            if (!r) return noRepo(repo);
            const i = r.issues[number - 1];
            if (!i) return fail(`Not Found: issue #${number} in ${repo}`);
            return structured({ ...i, body: issueBody(repo, i), url: `https://github.example/${repo}/issues/${number}` },
                `#${number} ${i.title} (${i.state})`);
        },
    },
    {
        name: 'create_issue',
        description: 'Open an issue. Returns its number and URL.',
        inputSchema: obj({
            repo: REPO, title: str({ minLength: 1, maxLength: 120 }), body: str(),
            labels: { type: 'array', items: str(), uniqueItems: true, maxItems: 5 },
            assignees: { type: 'array', items: str() },
        }, ['repo', 'title']),
        outputSchema: obj({ number: int(), url: str(), title: str(), state: { const: 'open' }, labels: { type: 'array', items: str() } },
            ['number', 'url', 'title', 'state', 'labels']),
        run({ repo, title, labels = [] }) {
            const r = findRepo(repo);
            if (!r) return noRepo(repo);
            if (r.repo.archived) return fail(`Forbidden: ${repo} is archived and read-only`);
            const number = r.issues.length + 1 + (fnv(repo + '#' + title) % 50);
            return structured({ number, url: `https://github.example/${repo}/issues/${number}`, title, state: 'open', labels });
        },
    },
    {
        name: 'add_comment',
        description: 'Comment on an issue. Returns a confirmation line.',
        inputSchema: obj({ repo: REPO, number: int({ minimum: 1 }), body: str({ minLength: 1 }) }, ['repo', 'number', 'body']),
        run({ repo, number, body }) {
            const r = findRepo(repo);
            if (!r) return noRepo(repo);
            if (!r.issues[number - 1]) return fail(`Not Found: issue #${number} in ${repo}`);
            return text(`Comment ${70000 + (fnv(repo + number + body) % 9999)} added to ${repo}#${number}`);
        },
    },
    {
        name: 'get_user',
        description: 'Get a user profile.',
        inputSchema: obj({ login: str({ minLength: 1 }) }, ['login']),
        run({ login }) {
            const u = GH_USERS.find((x) => x.login === login);
            return u ? json(u) : fail(`Not Found: user ${login}`);
        },
    },
    {
        name: 'search_code',
        description: 'Search code across an organization. Returns {total_count, items}.',
        inputSchema: obj({ q: str({ minLength: 2 }), org: str(), limit: int({ minimum: 1, maximum: 20, default: 5 }) }, ['q']),
        run({ q, org = 'acme', limit = 5 }) {
            const repos = GH.orgs[org];
            if (!repos) return fail(`Not Found: organization ${org}`);
            const items = [];
            for (const r of repos) {
                const h = fnv(q + ':' + r.name);
                if (h % 3 === 0) items.push({ repo: r.full_name, path: `src/${q.replace(/\W+/g, '_')}_${h % 7}.ts`, line: 1 + (h % 300) });
            }
            return json({ total_count: items.length, items: items.slice(0, limit) });
        },
    },
];

// ---- db -------------------------------------------------------------------------------------

const TABLES = Object.keys(DB);
const scalar = { type: ['string', 'number', 'boolean', 'null'] };
const filterSchema = obj({
    column: str(), op: { enum: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains'] },
    value: { anyOf: [scalar, { type: 'array', items: scalar }] },
}, ['column', 'op', 'value']);
const whereSchema = { type: 'object', additionalProperties: scalar, description: 'column = value conditions, all must hold' };

function columnCheck(table, cols) {
    const known = DB_COLUMNS[table].map((c) => c[0]);
    for (const c of cols) if (!known.includes(c)) return fail(`SQLITE_ERROR: no such column: ${c} (table ${table})`);
    return null;
}
const OPS = {
    eq: (a, b) => a === b, ne: (a, b) => a !== b, gt: (a, b) => a > b, gte: (a, b) => a >= b,
    lt: (a, b) => a < b, lte: (a, b) => a <= b, in: (a, b) => Array.isArray(b) && b.includes(a),
    contains: (a, b) => String(a).toLowerCase().includes(String(b).toLowerCase()),
};
function matching(table, where = {}, filters = []) {
    const bad = columnCheck(table, [...Object.keys(where), ...filters.map((f) => f.column)]);
    if (bad) return { error: bad };
    const rows = DB[table].filter((row) => Object.entries(where).every(([k, v]) => row[k] === v) &&
        filters.every((f) => OPS[f.op](row[f.column], f.value)));
    return { rows };
}
const tableArg = { enum: TABLES, description: 'users, orders or products' };

const db = [
    {
        name: 'list_tables',
        description: 'List the tables and their row counts.',
        inputSchema: obj({}),
        outputSchema: obj({ tables: { type: 'array', items: obj({ name: str(), row_count: int() }, ['name', 'row_count']) } }, ['tables']),
        run: () => structured({ tables: TABLES.map((name) => ({ name, row_count: DB[name].length })) }),
    },
    {
        name: 'describe_table',
        description: 'Columns of a table as JSON: [{column, type, nullable}].',
        inputSchema: obj({ table: tableArg }, ['table']),
        run: ({ table }) => json(DB_COLUMNS[table].map(([column, type, nullable]) => ({ column, type, nullable }))),
    },
    {
        name: 'select',
        description: 'Select rows. `where` is equality on columns; `filters` allows comparisons. Returns {rows, total}.',
        inputSchema: obj({
            table: tableArg, where: whereSchema, filters: { type: 'array', items: filterSchema },
            columns: { type: 'array', items: str(), minItems: 1 },
            order_by: str(), desc: { type: 'boolean', default: false },
            limit: int({ minimum: 1, maximum: 100, default: 20 }), offset: int({ minimum: 0, default: 0 }),
        }, ['table']),
        outputSchema: obj({ rows: { type: 'array', items: { type: 'object' } }, total: int(), limit: int(), offset: int() },
            ['rows', 'total', 'limit', 'offset']),
        run({ table, where, filters, columns, order_by, desc = false, limit = 20, offset = 0 }) {
            const m = matching(table, where, filters);
            if (m.error) return m.error;
            const bad = columnCheck(table, [...(columns || []), ...(order_by ? [order_by] : [])]);
            if (bad) return bad;
            let rows = m.rows.slice();
            if (order_by) {
                const pk = DB_COLUMNS[table][0][0];
                rows.sort((a, b) => (a[order_by] < b[order_by] ? -1 : a[order_by] > b[order_by] ? 1 : a[pk] < b[pk] ? -1 : 1) * (desc ? -1 : 1));
            }
            rows = rows.slice(offset, offset + limit);
            if (columns) rows = rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c]])));
            return structured({ rows, total: m.rows.length, limit, offset }, `${rows.length} of ${m.rows.length} rows`);
        },
    },
    {
        name: 'count',
        description: 'Count matching rows; answers the number as text.',
        inputSchema: obj({ table: tableArg, where: whereSchema, filters: { type: 'array', items: filterSchema } }, ['table']),
        run({ table, where, filters }) {
            const m = matching(table, where, filters);
            return m.error || text(String(m.rows.length));
        },
    },
    {
        name: 'insert',
        description: 'Insert a row (dry run: validated, not stored). Returns the new id.',
        inputSchema: obj({ table: tableArg, row: { type: 'object', minProperties: 1 } }, ['table', 'row']),
        outputSchema: obj({ table: str(), id: { type: ['integer', 'string'] }, dry_run: { type: 'boolean' } }, ['table', 'id', 'dry_run']),
        run({ table, row }) {
            const bad = columnCheck(table, Object.keys(row));
            if (bad) return bad;
            const need = DB_COLUMNS[table].map((c) => c[0]).filter((c) => c !== 'id' && !(c in row));
            if (need.length) return fail(`SQLITE_CONSTRAINT: NOT NULL constraint failed: ${table}.${need[0]}`);
            if (table === 'users' && DB.users.some((u) => u.email === row.email)) return fail('SQLITE_CONSTRAINT: UNIQUE constraint failed: users.email');
            if (table === 'products' && DB.products.some((p) => p.sku === row.sku)) return fail('SQLITE_CONSTRAINT: UNIQUE constraint failed: products.sku');
            const id = table === 'products' ? row.sku : DB[table][DB[table].length - 1].id + 1;
            return structured({ table, id, dry_run: true });
        },
    },
];

// ---- fs ---------------------------------------------------------------------------------------

const FILES = FS.files;
const norm = (p) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);
const isDir = (p) => p === '/' || Object.keys(FILES).some((f) => f.startsWith(norm(p) + '/'));
const enoent = (p, op = 'open') => fail(`ENOENT: no such file or directory, ${op} '${p}'`);

function children(dir) {
    const base = dir === '/' ? '/' : norm(dir) + '/';
    const names = new Map();
    for (const f of Object.keys(FILES)) {
        if (!f.startsWith(base)) continue;
        const rest = f.slice(base.length), slash = rest.indexOf('/');
        if (slash < 0) names.set(rest, { name: rest, type: 'file', size: fileSize(FILES[f]) });
        else if (!names.has(rest.slice(0, slash))) names.set(rest.slice(0, slash), { name: rest.slice(0, slash), type: 'dir', size: 0 });
    }
    return [...names.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}
function globToRegex(glob) {
    let re = '';
    for (let i = 0; i < glob.length; i++) {
        const c = glob[i];
        if (c === '*' && glob[i + 1] === '*') { re += '.*'; i++; if (glob[i + 1] === '/') i++; }
        else if (c === '*') re += '[^/]*';
        else if (c === '?') re += '[^/]';
        else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return new RegExp('^' + re + '$');
}
function readOne(path) {
    const f = FILES[norm(path)];
    if (f === undefined) return isDir(path) ? fail(`EISDIR: illegal operation on a directory, read '${path}'`) : enoent(path);
    if (typeof f !== 'string') return { content: [{ type: 'image', data: f.image, mimeType: 'image/png' }] };
    return text(f);
}

const fsTools = [
    {
        name: 'list_dir',
        description: 'List a directory: JSON [{name, type, size}] sorted by name.',
        inputSchema: obj({ path: str({ pattern: '^/' }) }, ['path']),
        run({ path }) {
            if (FILES[norm(path)] !== undefined) return fail(`ENOTDIR: not a directory, scandir '${path}'`);
            if (!isDir(path)) return enoent(path, 'scandir');
            return json(children(path));
        },
    },
    {
        name: 'read_file',
        description: 'Read a file: text files as text, images as image content.',
        inputSchema: obj({ path: str({ pattern: '^/' }) }, ['path']),
        run: ({ path }) => readOne(path),
    },
    {
        name: 'read_multiple',
        description: 'Read several files; one text item per file ("path:\\ncontent"), errors inline.',
        inputSchema: obj({ paths: { type: 'array', items: str({ pattern: '^/' }), minItems: 1, maxItems: 20 } }, ['paths']),
        run({ paths }) {
            return { content: paths.map((p) => {
                const f = FILES[p];
                return { type: 'text', text: typeof f === 'string' ? `${p}:\n${f}` : `${p}: ERROR: ${f === undefined ? 'not found' : 'binary file'}` };
            }) };
        },
    },
    {
        name: 'stat',
        description: 'File or directory metadata.',
        inputSchema: obj({ path: str({ pattern: '^/' }) }, ['path']),
        outputSchema: obj({ path: str(), type: { enum: ['file', 'dir'] }, size: int(), modified: str() }, ['path', 'type', 'size', 'modified']),
        run({ path }) {
            const p = norm(path), f = FILES[p];
            if (f === undefined && !isDir(p)) return enoent(path, 'stat');
            return structured({ path: p, type: f === undefined ? 'dir' : 'file', size: f === undefined ? 0 : fileSize(f), modified: fileModified(p) });
        },
    },
    {
        name: 'search_files',
        description: 'Find files under a directory whose path (relative to it) matches a glob (* ? **). JSON array of absolute paths.',
        inputSchema: obj({ path: str({ pattern: '^/' }), pattern: str({ minLength: 1 }) }, ['path', 'pattern']),
        run({ path, pattern }) {
            if (!isDir(path)) return enoent(path, 'scandir');
            const base = path === '/' ? '/' : norm(path) + '/', re = globToRegex(pattern);
            return json(Object.keys(FILES).filter((f) => f.startsWith(base) && re.test(f.slice(base.length))).sort());
        },
    },
    {
        name: 'grep',
        description: 'Search text files under a directory for a substring. JSON [{file, line, text}].',
        inputSchema: obj({ path: str({ pattern: '^/' }), query: str({ minLength: 1 }), ignore_case: { type: 'boolean', default: false } }, ['path', 'query']),
        run({ path, query, ignore_case = false }) {
            if (!isDir(path)) return enoent(path, 'scandir');
            const base = norm(path) + '/', out = [];
            const q = ignore_case ? query.toLowerCase() : query;
            for (const f of Object.keys(FILES).sort()) {
                if (!f.startsWith(base) || typeof FILES[f] !== 'string') continue;
                FILES[f].split('\n').forEach((line, i) => {
                    if ((ignore_case ? line.toLowerCase() : line).includes(q)) out.push({ file: f, line: i + 1, text: line.trim() });
                });
            }
            return json(out);
        },
    },
    {
        name: 'write_file',
        description: 'Write a file (dry run: nothing is stored). Answers a confirmation line.',
        inputSchema: obj({ path: str({ pattern: '^/' }), content: str() }, ['path', 'content']),
        run({ path, content }) {
            if (!path.startsWith('/tmp/') && !path.startsWith('/project/')) return fail(`EACCES: permission denied, open '${path}'`);
            return text(`Wrote ${Buffer.byteLength(content, 'utf8')} bytes to ${path}`);
        },
    },
];

// ---- weather -------------------------------------------------------------------------------

const CITY = str({ minLength: 1, description: 'City name, e.g. Berlin' });
const toF = (c) => Math.round(c * 9 / 5 + 32);
const findCity = (name) => Object.keys(CITIES).find((c) => c.toLowerCase() === String(name).toLowerCase());

const weather = [
    {
        name: 'current',
        description: 'Current conditions for a city.',
        inputSchema: obj({ city: CITY, units: { enum: ['metric', 'imperial'], default: 'metric' } }, ['city']),
        outputSchema: obj({ city: str(), country: str(), temp: { type: 'number' }, conditions: str(), humidity: int(),
            wind_kph: int(), units: { enum: ['metric', 'imperial'] } }, ['city', 'country', 'temp', 'conditions', 'humidity', 'wind_kph', 'units']),
        run({ city, units = 'metric' }) {
            const c = findCity(city);
            if (!c) return fail(`Unknown city: ${city}`);
            const d = weatherDay(c, 0);
            const temp = units === 'imperial' ? toF(d.high - 2) : d.high - 2;
            return structured({ city: c, country: CITIES[c].country, temp, conditions: d.conditions, humidity: d.humidity,
                wind_kph: d.wind_kph, units }, `${c}: ${temp}°${units === 'imperial' ? 'F' : 'C'}, ${d.conditions}`);
        },
    },
    {
        name: 'forecast',
        description: 'Daily forecast, 1 to 7 days, as JSON {city, daily: [...]}.',
        inputSchema: obj({ city: CITY, days: int({ minimum: 1, maximum: 7 }) }, ['city', 'days']),
        run({ city, days }) {
            const c = findCity(city);
            if (!c) return fail(`Unknown city: ${city}`);
            const daily = [];
            for (let i = 1; i <= days; i++) {
                const { date, high, low, conditions, precip_mm } = weatherDay(c, i);
                daily.push({ date, high, low, conditions, precip_mm });
            }
            return json({ city: c, daily });
        },
    },
    {
        name: 'cities',
        description: 'The supported cities, as a comma-separated line of text.',
        inputSchema: obj({}),
        run: () => text(Object.keys(CITIES).sort().join(', ')),
    },
    {
        name: 'get-alerts',
        description: 'Active weather alerts of a region: one text item per alert (none: empty content).',
        inputSchema: obj({ region: { enum: Object.keys(ALERTS) } }, ['region']),
        run: ({ region }) => ({ content: ALERTS[region].map((a) => ({ type: 'text', text: a })) }),
    },
    {
        name: 'city_info',
        description: 'Region and country of a city.',
        inputSchema: obj({ city: CITY }, ['city']),
        outputSchema: obj({ city: str(), country: str(), region: str() }, ['city', 'country', 'region']),
        run({ city }) {
            const c = findCity(city);
            if (!c) return fail(`Unknown city: ${city}`);
            return structured({ city: c, country: CITIES[c].country, region: CITIES[c].region });
        },
    },
];

// ---- kv (stateful, per namespace) ---------------------------------------------------------

const NS = str({ pattern: '^[a-z0-9_-]{1,40}$', description: 'namespace; use one of your own' });
const KEY = str({ minLength: 1, maxLength: 200 });
function space(state, ns) {
    if (!state.kv.has(ns)) state.kv.set(ns, new Map());
    return state.kv.get(ns);
}

const kv = [
    {
        name: 'get',
        description: 'Read a key. Returns {key, found, value, version}.',
        inputSchema: obj({ ns: NS, key: KEY }, ['ns', 'key']),
        outputSchema: obj({ key: str(), found: { type: 'boolean' }, value: {}, version: int() }, ['key', 'found', 'value', 'version']),
        run({ ns, key }, state) {
            const e = space(state, ns).get(key);
            return structured({ key, found: !!e, value: e ? e.value : null, version: e ? e.version : 0 });
        },
    },
    {
        name: 'set',
        description: 'Write a key. With if_version, only when the current version matches (optimistic locking).',
        inputSchema: obj({ ns: NS, key: KEY, value: {}, if_version: int({ minimum: 0 }) }, ['ns', 'key', 'value']),
        outputSchema: obj({ key: str(), version: int() }, ['key', 'version']),
        run({ ns, key, value, if_version }, state) {
            const s = space(state, ns), cur = s.get(key);
            const v = cur ? cur.version : 0;
            if (if_version !== undefined && if_version !== v) return fail(`Conflict: ${key} is at version ${v}, not ${if_version}`);
            s.set(key, { value, version: v + 1 });
            return structured({ key, version: v + 1 });
        },
    },
    {
        name: 'delete',
        description: 'Delete a key. Returns {deleted}.',
        inputSchema: obj({ ns: NS, key: KEY }, ['ns', 'key']),
        outputSchema: obj({ deleted: { type: 'boolean' } }, ['deleted']),
        run: ({ ns, key }, state) => structured({ deleted: space(state, ns).delete(key) }),
    },
    {
        name: 'list',
        description: 'List keys in sorted order, a page at a time: {keys, cursor} (cursor null at the end).',
        inputSchema: obj({ ns: NS, prefix: str(), cursor: { type: ['string', 'null'] }, limit: int({ minimum: 1, maximum: 50, default: 10 }) }, ['ns']),
        outputSchema: obj({ keys: { type: 'array', items: str() }, cursor: { type: ['string', 'null'] } }, ['keys', 'cursor']),
        run({ ns, prefix = '', cursor = null, limit = 10 }, state) {
            const all = [...space(state, ns).keys()].filter((k) => k.startsWith(prefix)).sort();
            const start = cursor ? all.findIndex((k) => k > cursor) : 0;
            const keys = start < 0 ? [] : all.slice(start, start + limit);
            const more = start >= 0 && start + limit < all.length;
            return structured({ keys, cursor: more ? keys[keys.length - 1] : null });
        },
    },
    {
        name: 'incr',
        description: 'Add `by` (default 1) to a numeric key and answer the new number as text.',
        inputSchema: obj({ ns: NS, key: KEY, by: int({ default: 1 }) }, ['ns', 'key']),
        run({ ns, key, by = 1 }, state) {
            const s = space(state, ns), cur = s.get(key);
            if (cur && typeof cur.value !== 'number') return fail(`Type error: ${key} holds a ${typeof cur.value}, not a number`);
            const value = (cur ? cur.value : 0) + by;
            s.set(key, { value, version: cur ? cur.version + 1 : 1 });
            return text(String(value));
        },
    },
];

// ---- search --------------------------------------------------------------------------------

const words = (s) => s.toLowerCase().match(/[a-z0-9]+/g) || [];
const search = [
    {
        name: 'web',
        description: 'Search the web. JSON {query, results: [{title, url, snippet, score}]} best first.',
        inputSchema: obj({ query: str({ minLength: 1 }), limit: int({ minimum: 1, maximum: 10, default: 5 }) }, ['query']),
        run({ query, limit = 5 }) {
            const q = words(query);
            const scored = PAGES.map(([url, title, body]) => {
                const w = words(title + ' ' + body);
                const score = q.reduce((n, t) => n + w.filter((x) => x === t).length, 0);
                return { title, url, snippet: body.split('. ')[0] + '.', score };
            }).filter((r) => r.score > 0).sort((a, b) => b.score - a.score || (a.url < b.url ? -1 : 1));
            return json({ query, results: scored.slice(0, limit) });
        },
    },
    {
        name: 'fetch_page',
        description: 'Fetch a page as markdown text.',
        inputSchema: obj({ url: str({ pattern: '^https?://' }) }, ['url']),
        run({ url }) {
            const p = PAGES.find((x) => x[0] === url);
            return p ? text(`# ${p[1]}\n\n${p[2]}\n`) : fail(`HTTP 404 Not Found: ${url}`);
        },
    },
    {
        name: 'suggest',
        description: 'Query suggestions for a prefix (JSON array of strings).',
        inputSchema: obj({ prefix: str() }, ['prefix']),
        run({ prefix }) {
            const all = [...new Set(PAGES.flatMap((p) => words(p[1])))].sort();
            return json(all.filter((w) => w.startsWith(prefix.toLowerCase())).slice(0, 8));
        },
    },
];

// ---- mail ---------------------------------------------------------------------------------------

const summary = (m) => ({ id: m.id, from: m.from, subject: m.subject, date: m.date, unread: m.unread, labels: m.labels });
const findMsg = (id) => Object.values(MAIL).flat().find((m) => m.id === id);
const msgSummary = obj({ id: str(), from: str(), subject: str(), date: str(), unread: { type: 'boolean' },
    labels: { type: 'array', items: str() } }, ['id', 'from', 'subject', 'date', 'unread', 'labels']);

const mail = [
    {
        name: 'list_messages',
        description: 'List messages of a folder, newest first, a page at a time ({messages, next_cursor}).',
        inputSchema: obj({ folder: { enum: ['inbox', 'sent', 'archive'] }, unread_only: { type: 'boolean', default: false },
            cursor: str(), limit: int({ minimum: 1, maximum: 20, default: 10 }) }, ['folder']),
        outputSchema: obj({ messages: { type: 'array', items: msgSummary }, next_cursor: { type: ['string', 'null'] } }, ['messages', 'next_cursor']),
        run({ folder, unread_only = false, cursor, limit = 10 }) {
            const all = MAIL[folder].filter((m) => !unread_only || m.unread);
            let start = 0;
            if (cursor !== undefined) {
                const m = /^cur_(\d+)$/.exec(cursor);
                if (!m) return fail(`Invalid cursor: ${cursor}`);
                start = Number(m[1]);
            }
            const messages = all.slice(start, start + limit).map(summary);
            const next = start + limit < all.length ? `cur_${start + limit}` : null;
            return structured({ messages, next_cursor: next }, `${messages.length} messages`);
        },
    },
    {
        name: 'get_message',
        description: 'Get one message with its body and attachment list (JSON).',
        inputSchema: obj({ id: str({ minLength: 1 }) }, ['id']),
        run({ id }) {
            const m = findMsg(id);
            return m ? json(m) : fail(`No such message: ${id}`);
        },
    },
    {
        name: 'send',
        description: 'Send a message. Returns {id, status, recipients}.',
        inputSchema: obj({ to: { type: 'array', items: str({ format: 'email' }), minItems: 1, maxItems: 10 },
            cc: { type: 'array', items: str({ format: 'email' }) },
            subject: str({ minLength: 1, maxLength: 200 }), body: str() }, ['to', 'subject', 'body']),
        outputSchema: obj({ id: str(), status: { enum: ['queued'] }, recipients: int() }, ['id', 'status', 'recipients']),
        run({ to, cc = [], subject, body }) {
            const bad = [...to, ...cc].find((a) => !/^[^@\s]+@[^@\s]+\.[a-z]+$/.test(a));
            if (bad) return fail(`501 invalid address: ${bad}`);
            const blocked = [...to, ...cc].find((a) => a.endsWith('@blocked.example'));
            if (blocked) return fail(`550 recipient rejected: ${blocked}`);
            return structured({ id: 'out-' + (fnv(to.join(',') + subject + body) % 100000).toString(36), status: 'queued', recipients: to.length + cc.length });
        },
    },
    {
        name: 'get_attachment',
        description: 'An attachment as an embedded resource.',
        inputSchema: obj({ message_id: str(), name: str() }, ['message_id', 'name']),
        run({ message_id, name }) {
            const m = findMsg(message_id);
            const a = m && m.attachments.find((x) => x.name === name);
            if (!a) return fail(`No attachment ${name} on ${message_id}`);
            const uri = `mail://${message_id}/attachments/${name}`;
            if (name.endsWith('.csv')) {
                return { content: [{ type: 'resource', resource: { uri, mimeType: 'text/csv', text: 'week,signups,churn\n1,120,4\n2,135,6\n3,128,3\n4,150,5\n' } }] };
            }
            return { content: [{ type: 'resource', resource: { uri, mimeType: 'application/pdf', blob: Buffer.from(`%PDF-1.4 ${message_id}`).toString('base64') } }] };
        },
    },
];

// ---- slow (timing and concurrency probes) ------------------------------------------------------

const slow = [
    {
        name: 'wait',
        description: 'Answer {label, ms} after `ms` milliseconds.',
        inputSchema: obj({ ms: int({ minimum: 0, maximum: 5000 }), label: str() }, ['ms']),
        delay: ({ ms }) => ms,
        run: ({ ms, label = null }) => structured({ label, ms }),
        outputSchema: obj({ label: { type: ['string', 'null'] }, ms: int() }, ['label', 'ms']),
    },
    {
        name: 'enter',
        description: 'Hold a slot of `key` for `ms` ms; the host tracks how many calls of that key overlap.',
        inputSchema: obj({ key: str({ minLength: 1 }), ms: int({ minimum: 0, maximum: 2000 }) }, ['key', 'ms']),
        delay: () => 0,
        async run({ key, ms }, state) {
            const s = state.slots.get(key) || { now: 0, peak: 0, calls: 0 };
            state.slots.set(key, s);
            s.now++; s.calls++;
            s.peak = Math.max(s.peak, s.now);
            await new Promise((r) => setTimeout(r, ms));
            s.now--;
            return text('ok');
        },
    },
    {
        name: 'peak',
        description: 'How many calls of `key` were in flight at once, at most: {key, peak, calls}.',
        inputSchema: obj({ key: str({ minLength: 1 }) }, ['key']),
        run({ key }, state) {
            const s = state.slots.get(key) || { peak: 0, calls: 0 };
            return json({ key, peak: s.peak, calls: s.calls });
        },
    },
    {
        name: 'compute',
        description: 'Fibonacci of n, slowly (10 + 5n ms).',
        inputSchema: obj({ n: int({ minimum: 0, maximum: 40 }) }, ['n']),
        delay: ({ n }) => 10 + 5 * n,
        run({ n }) {
            let a = 0, b = 1;
            for (let i = 0; i < n; i++) [a, b] = [b, a + b];
            return json({ n, fib: a });
        },
    },
];

// ---- flaky (failures on purpose) ----------------------------------------------------------------

const flaky = [
    {
        name: 'fetch',
        description: 'Fetch a record that fails the first `fail_times` calls of each key with 503 (default 2).',
        inputSchema: obj({ key: str({ minLength: 1 }), fail_times: int({ minimum: 0, maximum: 5, default: 2 }) }, ['key']),
        run({ key, fail_times = 2 }, state) {
            const n = (state.attempts.get(key) || 0) + 1;
            state.attempts.set(key, n);
            if (n <= fail_times) return fail(`503 Service Unavailable (attempt ${n}): try again`);
            return structured({ key, attempts: n, data: { checksum: fnv(key) % 10000 } });
        },
        outputSchema: obj({ key: str(), attempts: int(), data: obj({ checksum: int() }, ['checksum']) }, ['key', 'attempts', 'data']),
    },
    {
        name: 'unstable',
        description: 'Item `id` squared; ids divisible by 3 always fail with an upstream timeout.',
        inputSchema: obj({ id: int({ minimum: 0 }) }, ['id']),
        run: ({ id }) => (id % 3 === 0 ? fail(`Upstream timeout for item ${id}`) : json({ id, value: id * id })),
    },
    {
        name: 'status',
        description: 'Service status line (plain text).',
        inputSchema: obj({ service: { enum: ['api', 'db', 'queue', 'cdn'] } }, ['service']),
        run: ({ service }) => text({ api: 'operational', db: 'degraded: replica lag 4s', queue: 'operational', cdn: 'partial outage' }[service]),
    },
];

// ---- text (UTF-16 fidelity) ----------------------------------------------------------------------

const KIND = { enum: Object.keys(TEXT_SAMPLES), description: 'which sample: emoji, cjk, lone_high, lone_low, nul or mixed' };
const unitsOf = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
const textTools = [
    {
        name: 'sample',
        description: 'The sample string of a kind, as plain text.',
        inputSchema: obj({ kind: KIND }, ['kind']),
        run: ({ kind }) => text(TEXT_SAMPLES[kind]),
    },
    {
        name: 'sample_json',
        description: 'The sample string of a kind inside a JSON text.',
        inputSchema: obj({ kind: KIND }, ['kind']),
        run: ({ kind }) => json({ kind, text: TEXT_SAMPLES[kind], list: [TEXT_SAMPLES[kind]] }),
    },
    {
        name: 'sample_structured',
        description: 'The sample string of a kind as structuredContent, also as an object key.',
        inputSchema: obj({ kind: KIND }, ['kind']),
        run: ({ kind }) => structured({ kind, text: TEXT_SAMPLES[kind], keyed: { [TEXT_SAMPLES[kind]]: kind } }, `sample ${kind}`),
    },
    {
        name: 'sample_error',
        description: 'Fails with the sample string of a kind in its message.',
        inputSchema: obj({ kind: KIND }, ['kind']),
        run: ({ kind }) => fail(`failed: ${TEXT_SAMPLES[kind]}`),
    },
    {
        name: 'sample_resource',
        description: 'A text item and an embedded resource whose text is the sample string of a kind.',
        inputSchema: obj({ kind: KIND }, ['kind']),
        run: ({ kind }) => ({ content: [{ type: 'text', text: `resource ${kind}` },
            { type: 'resource', resource: { uri: `text://samples/${kind}`, mimeType: 'text/plain', text: TEXT_SAMPLES[kind] } }] }),
    },
    {
        name: 'echo',
        description: 'The string as it arrived, with its UTF-16 code units as the server saw them.',
        inputSchema: obj({ value: str() }, ['value']),
        run: ({ value }) => structured({ value, length: value.length, units: unitsOf(value) }),
    },
    {
        name: 'greet_\u{1F600}',
        description: 'A tool whose name is outside the BMP: greets `who`.',
        inputSchema: obj({ who: str() }, ['who']),
        run: ({ who }) => (who === '' ? fail('nobody to greet \u{1F600}') : text(`hello ${who} \u{1F44B}`)),
    },
];

export const PERSONAS = { github, db, fs: fsTools, weather, kv, search, mail, slow, flaky, text: textTools };

/** Fresh state for a host (kv spaces, flaky attempt counters, slow slots). */
export function newState() {
    return { kv: new Map(), attempts: new Map(), slots: new Map() };
}

/** The tool list of a persona as MCP Tool objects. */
export function listTools(persona) {
    return PERSONAS[persona].map((t) => {
        const o = { name: t.name, description: t.description, inputSchema: t.inputSchema };
        if (t.outputSchema) o.outputSchema = t.outputSchema;
        return o;
    });
}

export function findTool(persona, name) {
    return (PERSONAS[persona] || []).find((t) => t.name === name);
}

/** Runs a call after its delay; answers a CallToolResult. Arguments are used as given
 *  (the callers validate them against inputSchema first). */
export async function callTool(state, persona, name, args) {
    const t = findTool(persona, name);
    if (!t) return fail(`Unknown tool: ${name}`);
    const ms = t.delay ? t.delay(args) : delayFor(persona, name, args);
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
    try {
        return await t.run(args, state);
    } catch (e) {
        return fail(`internal error in ${persona}.${name}: ${e.message}`);
    }
}
