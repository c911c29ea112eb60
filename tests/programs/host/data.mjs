// Deterministic data sets behind the scripted host's personas (tools.mjs):
// repositories and issues, database tables, a small file tree, weather,
// web pages and a mailbox. Everything is computed from fixed seeds, so every
// run of the recorder and of the MCP server sees exactly the same data.

/** FNV-1a over a string: a small stable hash for seeds, delays and ids. */
export function fnv(s) {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
        h ^= s.charCodeAt(i);
        h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h >>> 0;
}

/** A seeded generator (mulberry32); next() gives an integer in [0, n). */
export function rng(seed) {
    let a = typeof seed === 'string' ? fnv(seed) : seed >>> 0;
    const next = () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    return { int: (n) => Math.floor(next() * n), pick: (arr) => arr[Math.floor(next() * arr.length)] };
}

const DAY = 86400000;
const iso = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');

// ---- GitHub ------------------------------------------------------------------------

const ORG_REPOS = {
    acme: ['widgets', 'gadgets', 'api-server', 'web-app', 'cli', 'docs', 'infra', 'sdk-js', 'sdk-py',
        'sdk-go', 'design-system', 'mobile-ios', 'mobile-android', 'data-pipeline', 'ml-models',
        'auth-service', 'billing', 'notifications', 'search-service', 'analytics', 'legacy-monolith',
        'playground', 'website'],
    globex: ['core', 'portal', 'reports', 'etl', 'ops-scripts', 'mobile', 'handbook'],
};
const LANGS = ['TypeScript', 'Python', 'Go', 'Rust', 'JavaScript', 'Swift', 'Kotlin'];
export const GH_USERS = [
    { login: 'octo-alice', name: 'Alice Nakamura', followers: 1520, company: 'Acme' },
    { login: 'bob-dev', name: 'Bob Okafor', followers: 87, company: null },
    { login: 'carol-codes', name: 'Carol Jensen', followers: 431, company: 'Globex' },
    { login: 'dave-ops', name: 'Dave Moreau', followers: 12, company: 'Acme' },
    { login: 'erin-qa', name: 'Erin Silva', followers: 203, company: null },
    { login: 'frank-pm', name: 'Frank Weber', followers: 66, company: 'Acme' },
    { login: 'grace-sec', name: 'Grace Lindqvist', followers: 998, company: 'Globex' },
];
const LABELS = ['bug', 'enhancement', 'docs', 'good first issue', 'priority:high', 'question'];
const SUBJECTS = ['login page', 'CSV export', 'rate limiter', 'dark mode', 'search results', 'webhook retries',
    'pagination', 'config loader', 'unicode names', 'memory usage', 'error messages', 'CLI flags',
    'timezone handling', 'cache invalidation', 'retry logic', 'API docs'];
const VERBS = ['Crash in', 'Improve', 'Flaky test for', 'Add support for', 'Wrong output from', 'Slow',
    'Document', 'Refactor'];

function makeIssues(full) {
    const r = rng('issues:' + full);
    const special = { 'acme/widgets': 57, 'acme/api-server': 34, 'globex/core': 41 };
    const n = special[full] ?? 2 + r.int(22);
    const issues = [];
    for (let i = 1; i <= n; i++) {
        const labels = LABELS.filter(() => r.int(4) === 0);
        const state = r.int(3) === 0 ? 'closed' : 'open';
        const created = Date.UTC(2024, 0, 2) + i * 37 * 3600000 + r.int(3600) * 1000;
        issues.push({
            number: i,
            title: `${r.pick(VERBS)} ${r.pick(SUBJECTS)}`,
            state,
            labels,
            author: r.pick(GH_USERS).login,
            assignees: r.int(2) ? [r.pick(GH_USERS).login] : [],
            comments: r.int(15),
            created_at: iso(created),
            closed_at: state === 'closed' ? iso(created + (1 + r.int(20)) * DAY) : null,
        });
    }
    return issues;
}

export const GH = { orgs: {}, repos: {} };
for (const [org, names] of Object.entries(ORG_REPOS)) {
    GH.orgs[org] = names.map((name) => {
        const full = `${org}/${name}`;
        const r = rng('repo:' + full);
        const issues = makeIssues(full);
        const repo = {
            name,
            full_name: full,
            stars: r.int(5000),
            language: r.pick(LANGS),
            archived: name === 'legacy-monolith' || name === 'playground' || name === 'ops-scripts',
            open_issues: issues.filter((i) => i.state === 'open').length,
            default_branch: r.int(4) === 0 ? 'master' : 'main',
        };
        GH.repos[full] = { repo, issues };
        return repo;
    });
}

export function issueBody(full, issue) {
    return `Steps to reproduce ${issue.title.toLowerCase()} in ${full}:\n1. Open the app\n` +
        `2. Trigger the ${issue.labels[0] || 'main'} path\nExpected: it works. Actual: it does not.`;
}

// ---- database ----------------------------------------------------------------------

const FIRST = ['Ada', 'Ben', 'Chloe', 'Dmitri', 'Elena', 'Farah', 'Gus', 'Hana', 'Ivan', 'Jade', 'Kofi',
    'Lena', 'Mateo', 'Nora', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tara'];
const LAST = ['Lovelace', 'Okoro', 'Martin', 'Petrov', 'Garcia', 'Haddad', 'Berg', 'Sato', 'Novak', 'Lee'];
const COUNTRIES = ['US', 'DE', 'FR', 'BR', 'IN', 'JP', 'GB', 'CA'];
const PLANS = ['free', 'pro', 'team'];

function makeUsers() {
    const r = rng('db:users');
    const users = [];
    for (let id = 1; id <= 40; id++) {
        const first = FIRST[(id * 7) % FIRST.length], last = LAST[(id * 3) % LAST.length];
        users.push({
            id,
            name: `${first} ${last}`,
            email: `${first}.${last}${id}@example.com`.toLowerCase(),
            country: r.pick(COUNTRIES),
            plan: r.pick(PLANS),
            signup: iso(Date.UTC(2023, 0, 1) + r.int(365) * DAY).slice(0, 10),
            active: r.int(5) !== 0,
        });
    }
    return users;
}

function makeOrders() {
    const r = rng('db:orders');
    const orders = [];
    for (let i = 0; i < 120; i++) {
        orders.push({
            id: 1001 + i,
            user_id: 1 + r.int(40),
            total_cents: 500 + r.int(200) * 125,
            status: ['paid', 'paid', 'paid', 'refunded', 'pending'][r.int(5)],
            created: iso(Date.UTC(2024, 0, 1) + i * 2.5 * DAY + r.int(20000) * 1000),
        });
    }
    return orders;
}

const PRODUCTS = [
    ['KB-100', 'Mechanical keyboard', 8900, 'peripherals', 14],
    ['MS-200', 'Wireless mouse', 2900, 'peripherals', 52],
    ['MN-270', '27" monitor', 24900, 'displays', 6],
    ['MN-320', '32" 4K monitor', 44900, 'displays', 0],
    ['HB-070', 'USB-C hub', 3900, 'accessories', 31],
    ['CB-010', 'USB-C cable 1m', 900, 'accessories', 240],
    ['CB-020', 'USB-C cable 2m', 1200, 'accessories', 0],
    ['LS-300', 'Laptop stand', 4500, 'accessories', 18],
    ['HS-400', 'Noise-cancelling headset', 17900, 'audio', 9],
    ['SP-050', 'Desk speakers', 7900, 'audio', 3],
    ['WC-100', 'HD webcam', 6900, 'video', 22],
    ['LT-900', 'Ring light', 3500, 'video', 0],
    ['DK-500', 'Docking station', 19900, 'accessories', 5],
    ['CH-800', 'Ergonomic chair', 39900, 'furniture', 2],
    ['DS-600', 'Standing desk', 59900, 'furniture', 1],
].map(([sku, name, price_cents, category, stock]) => ({ sku, name, price_cents, category, stock }));

export const DB = {
    users: makeUsers(),
    orders: makeOrders(),
    products: PRODUCTS,
};
export const DB_COLUMNS = {
    users: [['id', 'integer', false], ['name', 'text', false], ['email', 'text', false],
        ['country', 'text', false], ['plan', 'text', false], ['signup', 'date', false], ['active', 'boolean', false]],
    orders: [['id', 'integer', false], ['user_id', 'integer', false], ['total_cents', 'integer', false],
        ['status', 'text', false], ['created', 'timestamp', false]],
    products: [['sku', 'text', false], ['name', 'text', false], ['price_cents', 'integer', false],
        ['category', 'text', false], ['stock', 'integer', false]],
};

// ---- file system -------------------------------------------------------------------

// A 1x1 PNG and a 2x1 PNG, base64.
const PNG1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';
const PNG2 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGNgYPj/n4GBgQEAD/4B/2Oj2L0AAAAASUVORK5CYII=';

function logFile(day, seed) {
    const r = rng('log:' + seed);
    const paths = ['/api/users', '/api/orders', '/api/login', '/health', '/api/search'];
    const lines = [];
    for (let i = 0; i < 24; i++) {
        const t = iso(Date.UTC(2024, 2, day, 8, 0, 0) + i * 173000 + r.int(1000) * 1000);
        const status = [200, 200, 200, 200, 201, 304, 404, 500, 503][r.int(9)];
        const level = status >= 500 ? 'ERROR' : status >= 400 ? 'WARN' : 'INFO';
        lines.push(`${t} ${level} ${r.pick(['GET', 'GET', 'POST'])} ${r.pick(paths)} status=${status} ms=${5 + r.int(400)}`);
    }
    return lines.join('\n') + '\n';
}

const FILES = {
    '/project/package.json': JSON.stringify({
        name: 'acme-widgets', version: '2.4.1', private: true, type: 'module',
        scripts: { build: 'tsc -p .', test: 'node --test', lint: 'eslint src' },
        dependencies: { express: '^4.19.2', zod: '^3.23.8', pino: '^9.1.0' },
        devDependencies: { typescript: '^5.4.5', eslint: '^8.57.0' },
    }, null, 2) + '\n',
    '/project/tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', strict: true, outDir: 'dist' }, include: ['src'] }, null, 2) + '\n',
    '/project/README.md': '# acme-widgets\n\nWidgets for the Acme platform.\n\n## Install\n\n    npm install acme-widgets\n\n## Usage\n\nSee docs/guide.md. TODO: document the CLI.\n',
    '/project/src/index.js': "import { slugify } from './util.js';\nimport { sum } from './lib/math.js';\n\n// TODO: read the port from the config\nconst PORT = 8080;\nexport function start() {\n  return { port: PORT, slug: slugify('Hello World'), total: sum([1, 2, 3]) };\n}\n",
    '/project/src/util.js': "export function slugify(s) {\n  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-');\n}\n// FIXME: handles ASCII only\nexport const VERSION = '2.4.1';\n",
    '/project/src/lib/math.js': "export const sum = (xs) => xs.reduce((a, b) => a + b, 0);\nexport const mean = (xs) => sum(xs) / xs.length;\n// TODO: median\n",
    '/project/src/lib/strings.js': "export const pad = (s, n) => String(s).padStart(n, '0');\nexport const title = (s) => s[0].toUpperCase() + s.slice(1);\n",
    '/project/test/util.test.js': "import { slugify } from '../src/util.js';\n// TODO: more cases\nconsole.assert(slugify('A B') === 'a-b');\n",
    '/project/docs/guide.md': '# Guide\n\nStart the server with `npm start`.\n\n## Configuration\n\nSet PORT. TODO: list every option.\n\n## Deploying\n\nUse the Dockerfile.\n',
    '/project/docs/api.md': '# API\n\n## GET /widgets\n\nLists widgets.\n\n## POST /widgets\n\nCreates a widget.\n\n## DELETE /widgets/:id\n\nDeletes one.\n',
    '/project/data/users.csv': 'id,name,team,score\n1,Ada,red,87\n2,Ben,blue,92\n3,Chloe,red,78\n4,Dmitri,green,95\n5,Elena,blue,81\n6,Farah,green,88\n7,Gus,red,70\n',
    '/project/data/config.yaml': 'server:\n  port: 8080\n  host: 0.0.0.0\nfeatures:\n  search: true\n  export: false\n',
    '/project/data/empty.txt': '',
    '/project/assets/logo.png': { image: PNG1 },
    '/project/assets/icon.png': { image: PNG2 },
    '/logs/app-2024-03-01.log': logFile(1, 'a'),
    '/logs/app-2024-03-02.log': logFile(2, 'b'),
    '/logs/app-2024-03-03.log': logFile(3, 'c'),
};
export const FS = { files: FILES };
export function fileSize(content) {
    return typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : Buffer.from(content.image, 'base64').length;
}
export function fileModified(path) {
    return iso(Date.UTC(2024, 2, 1) + (fnv(path) % 2000) * 3600000);
}

// ---- weather -----------------------------------------------------------------------

export const CITIES = {
    Berlin: { country: 'DE', base: 14, region: 'europe' },
    Lisbon: { country: 'PT', base: 21, region: 'europe' },
    Reykjavik: { country: 'IS', base: 6, region: 'europe' },
    Cairo: { country: 'EG', base: 31, region: 'africa' },
    Nairobi: { country: 'KE', base: 22, region: 'africa' },
    Tokyo: { country: 'JP', base: 19, region: 'asia' },
    Mumbai: { country: 'IN', base: 30, region: 'asia' },
    Sydney: { country: 'AU', base: 17, region: 'oceania' },
    Lima: { country: 'PE', base: 19, region: 'americas' },
    Toronto: { country: 'CA', base: 9, region: 'americas' },
};
const CONDITIONS = ['sunny', 'partly cloudy', 'cloudy', 'rain', 'showers', 'windy'];
export function weatherDay(city, day) {
    const c = CITIES[city], r = rng(`wx:${city}:${day}`);
    const high = c.base + r.int(9) - 2, low = high - 4 - r.int(6);
    const conditions = CONDITIONS[r.int(CONDITIONS.length)];
    const precip = conditions === 'rain' || conditions === 'showers' ? 1 + r.int(20) : 0;
    return { date: iso(Date.UTC(2024, 5, 1 + day)).slice(0, 10), high, low, conditions, precip_mm: precip,
        humidity: 30 + r.int(60), wind_kph: 3 + r.int(40) };
}
export const ALERTS = {
    europe: ['Heat advisory for Lisbon until 20:00', 'Gale warning: North Atlantic coast of Iceland'],
    asia: ['Heavy rain expected in Mumbai overnight'],
    africa: [],
    americas: ['Air quality alert for Toronto'],
    oceania: [],
};

// ---- web search ------------------------------------------------------------------------

export const PAGES = [
    ['https://docs.example.com/promises', 'Using promises', 'A promise represents the eventual result of an asynchronous operation. Chain then calls, handle errors with catch, and combine promises with Promise.all.'],
    ['https://docs.example.com/async-await', 'Async functions and await', 'An async function returns a promise. await pauses until a promise settles; use try and catch for errors.'],
    ['https://docs.example.com/map-set', 'Map and Set', 'Map keeps keys in insertion order; Set stores unique values. Both are iterable.'],
    ['https://blog.example.org/rate-limits', 'Handling rate limits', 'When an API answers 429, back off exponentially and retry. Respect the Retry-After header.'],
    ['https://blog.example.org/pagination', 'Cursor pagination explained', 'Cursor pagination returns a next cursor with each page; stop when the cursor is null.'],
    ['https://blog.example.org/json-schema', 'JSON Schema basics', 'JSON Schema describes the shape of JSON data: types, required properties, enums and patterns.'],
    ['https://news.example.net/mcp', 'The Model Context Protocol', 'MCP connects models to tools. Servers expose tools with JSON Schema inputs; clients call them.'],
    ['https://news.example.net/code-mode', 'Code mode for agents', 'Instead of one tool call per step, the model writes a program that calls many tools and returns a summary.'],
    ['https://wiki.example.com/duktape', 'Duktape', 'Duktape is an embeddable JavaScript engine with a focus on portability and a compact footprint.'],
    ['https://wiki.example.com/sandbox', 'Sandboxing', 'A sandbox runs untrusted code with limited authority: no network, no files, bounded time and memory.'],
    ['https://wiki.example.com/retry', 'Retry with backoff', 'Retry transient failures with exponential backoff and jitter; give up after a few attempts.'],
    ['https://docs.example.com/regex', 'Regular expressions', 'Named groups, flags and matchAll make regular expressions easier to read and use.'],
];

// ---- mail --------------------------------------------------------------------------------

const SENDERS = ['alice@acme.example', 'billing@vendor.example', 'noreply@ci.example', 'bob@globex.example',
    'carol@acme.example', 'security@acme.example'];
const MAIL_SUBJECTS = ['Weekly report', 'Invoice #{n}', 'Build failed on main', 'Lunch on Friday?',
    'Quarterly planning', 'Security advisory {n}', 'Re: API migration', 'Your receipt'];
function makeFolder(folder, n) {
    const r = rng('mail:' + folder);
    const out = [];
    for (let i = 0; i < n; i++) {
        const id = `${folder}-${String(i + 1).padStart(3, '0')}`;
        const subject = r.pick(MAIL_SUBJECTS).replace('{n}', String(100 + i * 7));
        const from = folder === 'sent' ? 'me@acme.example' : r.pick(SENDERS);
        out.push({
            id, from,
            to: folder === 'sent' ? [r.pick(SENDERS)] : ['me@acme.example'],
            subject,
            date: iso(Date.UTC(2024, 3, 1) + i * 9 * 3600000 + r.int(3000) * 1000),
            unread: folder === 'inbox' ? r.int(3) === 0 : false,
            labels: r.int(4) === 0 ? ['important'] : [],
            attachments: /Invoice|report/.test(subject) ? [{ name: subject.startsWith('Invoice') ? 'invoice.pdf' : 'report.csv', size: 1000 + r.int(90000) }] : [],
            body: `Hello,\n\nThis is about: ${subject}.\n\nRegards,\n${from.split('@')[0]}`,
        });
    }
    return out.reverse(); // newest first
}
export const MAIL = { inbox: makeFolder('inbox', 25), sent: makeFolder('sent', 8), archive: makeFolder('archive', 5) };

// ---- text: strings that test UTF-16 fidelity ----------------------------------------------------
// A character outside the BMP (two UTF-16 code units), a CJK extension character,
// lone surrogates (valid in JSON and in JavaScript strings) and U+0000.
export const TEXT_SAMPLES = {
    emoji: 'smile \u{1F600} ok',
    cjk: '\u{20000}\u{2A6D6} ext-B',
    lone_high: 'high \ud83d alone',
    lone_low: 'low \ude00 alone',
    nul: 'nul \u0000 inside',
    mixed: '\u{1F600}\u0000\ud800\u{20000}\udfff\u{10FFFF} end',
};
