const users = [];
for (let i = 0; i < 50; i++) users.push({ id: i, name: `user${i}`, age: 20 + (i % 30), tags: i % 3 ? ['a'] : ['a', 'b'] });
const f0 = (x, { k = 0 } = {}) => x?.v ?? k + users.length;
let s1 = 0; for (const u of users) { if (u.age > 1) s1 += u.id; }
const names2 = users.map(u => `${u.name}:2`).join(',');
const o3 = { id: 3, ...users[0], tags: [...users[1].tags, 'x'] };
function g4(a, b = 4) { return a > b ? a - b : b - a; }
if (users.length > 5) { const [first, ...others] = users; console.log(first.name, others.length); }
const m6 = users.slice(0, 3 + 6 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C7 { constructor(v) { this.v = v ?? 7; } get double() { return this.v * 2; } }
const r8 = await Promise.resolve(8).then(v => v + 1);
try { JSON.parse('{"a":9}'); } catch { console.log('bad 9'); }
const f10 = (x, { k = 10 } = {}) => x?.v ?? k + users.length;
let s11 = 0; for (const u of users) { if (u.age > 11) s11 += u.id; }
const names12 = users.map(u => `${u.name}:12`).join(',');
const o13 = { id: 13, ...users[0], tags: [...users[1].tags, 'x'] };
function g14(a, b = 14) { return a > b ? a - b : b - a; }
if (users.length > 15) { const [first, ...others] = users; console.log(first.name, others.length); }
const m16 = users.slice(0, 3 + 16 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C17 { constructor(v) { this.v = v ?? 17; } get double() { return this.v * 2; } }
const r18 = await Promise.resolve(18).then(v => v + 1);
try { JSON.parse('{"a":19}'); } catch { console.log('bad 19'); }
const f20 = (x, { k = 20 } = {}) => x?.v ?? k + users.length;
let s21 = 0; for (const u of users) { if (u.age > 21) s21 += u.id; }
const names22 = users.map(u => `${u.name}:22`).join(',');
const o23 = { id: 23, ...users[0], tags: [...users[1].tags, 'x'] };
function g24(a, b = 24) { return a > b ? a - b : b - a; }
if (users.length > 25) { const [first, ...others] = users; console.log(first.name, others.length); }
const m26 = users.slice(0, 3 + 26 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C27 { constructor(v) { this.v = v ?? 27; } get double() { return this.v * 2; } }
const r28 = await Promise.resolve(28).then(v => v + 1);
try { JSON.parse('{"a":29}'); } catch { console.log('bad 29'); }
const f30 = (x, { k = 30 } = {}) => x?.v ?? k + users.length;
let s31 = 0; for (const u of users) { if (u.age > 31) s31 += u.id; }
const names32 = users.map(u => `${u.name}:32`).join(',');
const o33 = { id: 33, ...users[0], tags: [...users[1].tags, 'x'] };
function g34(a, b = 34) { return a > b ? a - b : b - a; }
if (users.length > 35) { const [first, ...others] = users; console.log(first.name, others.length); }
const m36 = users.slice(0, 3 + 36 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C37 { constructor(v) { this.v = v ?? 37; } get double() { return this.v * 2; } }
const r38 = await Promise.resolve(38).then(v => v + 1);
try { JSON.parse('{"a":39}'); } catch { console.log('bad 39'); }
const f40 = (x, { k = 40 } = {}) => x?.v ?? k + users.length;
let s41 = 0; for (const u of users) { if (u.age > 41) s41 += u.id; }
const names42 = users.map(u => `${u.name}:42`).join(',');
const o43 = { id: 43, ...users[0], tags: [...users[1].tags, 'x'] };
function g44(a, b = 44) { return a > b ? a - b : b - a; }
if (users.length > 45) { const [first, ...others] = users; console.log(first.name, others.length); }
const m46 = users.slice(0, 3 + 46 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C47 { constructor(v) { this.v = v ?? 47; } get double() { return this.v * 2; } }
const r48 = await Promise.resolve(48).then(v => v + 1);
try { JSON.parse('{"a":49}'); } catch { console.log('bad 49'); }
const f50 = (x, { k = 50 } = {}) => x?.v ?? k + users.length;
let s51 = 0; for (const u of users) { if (u.age > 51) s51 += u.id; }
const names52 = users.map(u => `${u.name}:52`).join(',');
const o53 = { id: 53, ...users[0], tags: [...users[1].tags, 'x'] };
function g54(a, b = 54) { return a > b ? a - b : b - a; }
if (users.length > 55) { const [first, ...others] = users; console.log(first.name, others.length); }
const m56 = users.slice(0, 3 + 56 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C57 { constructor(v) { this.v = v ?? 57; } get double() { return this.v * 2; } }
const r58 = await Promise.resolve(58).then(v => v + 1);
try { JSON.parse('{"a":59}'); } catch { console.log('bad 59'); }
const f60 = (x, { k = 60 } = {}) => x?.v ?? k + users.length;
let s61 = 0; for (const u of users) { if (u.age > 61) s61 += u.id; }
const names62 = users.map(u => `${u.name}:62`).join(',');
const o63 = { id: 63, ...users[0], tags: [...users[1].tags, 'x'] };
function g64(a, b = 64) { return a > b ? a - b : b - a; }
if (users.length > 65) { const [first, ...others] = users; console.log(first.name, others.length); }
const m66 = users.slice(0, 3 + 66 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C67 { constructor(v) { this.v = v ?? 67; } get double() { return this.v * 2; } }
const r68 = await Promise.resolve(68).then(v => v + 1);
try { JSON.parse('{"a":69}'); } catch { console.log('bad 69'); }
const f70 = (x, { k = 70 } = {}) => x?.v ?? k + users.length;
let s71 = 0; for (const u of users) { if (u.age > 71) s71 += u.id; }
const names72 = users.map(u => `${u.name}:72`).join(',');
const o73 = { id: 73, ...users[0], tags: [...users[1].tags, 'x'] };
function g74(a, b = 74) { return a > b ? a - b : b - a; }
if (users.length > 75) { const [first, ...others] = users; console.log(first.name, others.length); }
const m76 = users.slice(0, 3 + 76 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C77 { constructor(v) { this.v = v ?? 77; } get double() { return this.v * 2; } }
const r78 = await Promise.resolve(78).then(v => v + 1);
try { JSON.parse('{"a":79}'); } catch { console.log('bad 79'); }
const f80 = (x, { k = 80 } = {}) => x?.v ?? k + users.length;
let s81 = 0; for (const u of users) { if (u.age > 81) s81 += u.id; }
const names82 = users.map(u => `${u.name}:82`).join(',');
const o83 = { id: 83, ...users[0], tags: [...users[1].tags, 'x'] };
function g84(a, b = 84) { return a > b ? a - b : b - a; }
if (users.length > 85) { const [first, ...others] = users; console.log(first.name, others.length); }
const m86 = users.slice(0, 3 + 86 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C87 { constructor(v) { this.v = v ?? 87; } get double() { return this.v * 2; } }
const r88 = await Promise.resolve(88).then(v => v + 1);
try { JSON.parse('{"a":89}'); } catch { console.log('bad 89'); }
const f90 = (x, { k = 90 } = {}) => x?.v ?? k + users.length;
let s91 = 0; for (const u of users) { if (u.age > 91) s91 += u.id; }
const names92 = users.map(u => `${u.name}:92`).join(',');
const o93 = { id: 93, ...users[0], tags: [...users[1].tags, 'x'] };
function g94(a, b = 94) { return a > b ? a - b : b - a; }
if (users.length > 95) { const [first, ...others] = users; console.log(first.name, others.length); }
const m96 = users.slice(0, 3 + 96 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C97 { constructor(v) { this.v = v ?? 97; } get double() { return this.v * 2; } }
const r98 = await Promise.resolve(98).then(v => v + 1);
try { JSON.parse('{"a":99}'); } catch { console.log('bad 99'); }
const f100 = (x, { k = 100 } = {}) => x?.v ?? k + users.length;
let s101 = 0; for (const u of users) { if (u.age > 101) s101 += u.id; }
const names102 = users.map(u => `${u.name}:102`).join(',');
const o103 = { id: 103, ...users[0], tags: [...users[1].tags, 'x'] };
function g104(a, b = 104) { return a > b ? a - b : b - a; }
if (users.length > 105) { const [first, ...others] = users; console.log(first.name, others.length); }
const m106 = users.slice(0, 3 + 106 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C107 { constructor(v) { this.v = v ?? 107; } get double() { return this.v * 2; } }
const r108 = await Promise.resolve(108).then(v => v + 1);
try { JSON.parse('{"a":109}'); } catch { console.log('bad 109'); }
const f110 = (x, { k = 110 } = {}) => x?.v ?? k + users.length;
let s111 = 0; for (const u of users) { if (u.age > 111) s111 += u.id; }
const names112 = users.map(u => `${u.name}:112`).join(',');
const o113 = { id: 113, ...users[0], tags: [...users[1].tags, 'x'] };
function g114(a, b = 114) { return a > b ? a - b : b - a; }
if (users.length > 115) { const [first, ...others] = users; console.log(first.name, others.length); }
const m116 = users.slice(0, 3 + 116 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C117 { constructor(v) { this.v = v ?? 117; } get double() { return this.v * 2; } }
const r118 = await Promise.resolve(118).then(v => v + 1);
try { JSON.parse('{"a":119}'); } catch { console.log('bad 119'); }
const f120 = (x, { k = 120 } = {}) => x?.v ?? k + users.length;
let s121 = 0; for (const u of users) { if (u.age > 121) s121 += u.id; }
const names122 = users.map(u => `${u.name}:122`).join(',');
const o123 = { id: 123, ...users[0], tags: [...users[1].tags, 'x'] };
function g124(a, b = 124) { return a > b ? a - b : b - a; }
if (users.length > 125) { const [first, ...others] = users; console.log(first.name, others.length); }
const m126 = users.slice(0, 3 + 126 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C127 { constructor(v) { this.v = v ?? 127; } get double() { return this.v * 2; } }
const r128 = await Promise.resolve(128).then(v => v + 1);
try { JSON.parse('{"a":129}'); } catch { console.log('bad 129'); }
const f130 = (x, { k = 130 } = {}) => x?.v ?? k + users.length;
let s131 = 0; for (const u of users) { if (u.age > 131) s131 += u.id; }
const names132 = users.map(u => `${u.name}:132`).join(',');
const o133 = { id: 133, ...users[0], tags: [...users[1].tags, 'x'] };
function g134(a, b = 134) { return a > b ? a - b : b - a; }
if (users.length > 135) { const [first, ...others] = users; console.log(first.name, others.length); }
const m136 = users.slice(0, 3 + 136 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C137 { constructor(v) { this.v = v ?? 137; } get double() { return this.v * 2; } }
const r138 = await Promise.resolve(138).then(v => v + 1);
try { JSON.parse('{"a":139}'); } catch { console.log('bad 139'); }
const f140 = (x, { k = 140 } = {}) => x?.v ?? k + users.length;
let s141 = 0; for (const u of users) { if (u.age > 141) s141 += u.id; }
const names142 = users.map(u => `${u.name}:142`).join(',');
const o143 = { id: 143, ...users[0], tags: [...users[1].tags, 'x'] };
function g144(a, b = 144) { return a > b ? a - b : b - a; }
if (users.length > 145) { const [first, ...others] = users; console.log(first.name, others.length); }
const m146 = users.slice(0, 3 + 146 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C147 { constructor(v) { this.v = v ?? 147; } get double() { return this.v * 2; } }
const r148 = await Promise.resolve(148).then(v => v + 1);
try { JSON.parse('{"a":149}'); } catch { console.log('bad 149'); }
const f150 = (x, { k = 150 } = {}) => x?.v ?? k + users.length;
let s151 = 0; for (const u of users) { if (u.age > 151) s151 += u.id; }
const names152 = users.map(u => `${u.name}:152`).join(',');
const o153 = { id: 153, ...users[0], tags: [...users[1].tags, 'x'] };
function g154(a, b = 154) { return a > b ? a - b : b - a; }
if (users.length > 155) { const [first, ...others] = users; console.log(first.name, others.length); }
const m156 = users.slice(0, 3 + 156 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C157 { constructor(v) { this.v = v ?? 157; } get double() { return this.v * 2; } }
const r158 = await Promise.resolve(158).then(v => v + 1);
try { JSON.parse('{"a":159}'); } catch { console.log('bad 159'); }
const f160 = (x, { k = 160 } = {}) => x?.v ?? k + users.length;
let s161 = 0; for (const u of users) { if (u.age > 161) s161 += u.id; }
const names162 = users.map(u => `${u.name}:162`).join(',');
const o163 = { id: 163, ...users[0], tags: [...users[1].tags, 'x'] };
function g164(a, b = 164) { return a > b ? a - b : b - a; }
if (users.length > 165) { const [first, ...others] = users; console.log(first.name, others.length); }
const m166 = users.slice(0, 3 + 166 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C167 { constructor(v) { this.v = v ?? 167; } get double() { return this.v * 2; } }
const r168 = await Promise.resolve(168).then(v => v + 1);
try { JSON.parse('{"a":169}'); } catch { console.log('bad 169'); }
const f170 = (x, { k = 170 } = {}) => x?.v ?? k + users.length;
let s171 = 0; for (const u of users) { if (u.age > 171) s171 += u.id; }
const names172 = users.map(u => `${u.name}:172`).join(',');
const o173 = { id: 173, ...users[0], tags: [...users[1].tags, 'x'] };
function g174(a, b = 174) { return a > b ? a - b : b - a; }
if (users.length > 175) { const [first, ...others] = users; console.log(first.name, others.length); }
const m176 = users.slice(0, 3 + 176 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C177 { constructor(v) { this.v = v ?? 177; } get double() { return this.v * 2; } }
const r178 = await Promise.resolve(178).then(v => v + 1);
try { JSON.parse('{"a":179}'); } catch { console.log('bad 179'); }
const f180 = (x, { k = 180 } = {}) => x?.v ?? k + users.length;
let s181 = 0; for (const u of users) { if (u.age > 181) s181 += u.id; }
const names182 = users.map(u => `${u.name}:182`).join(',');
const o183 = { id: 183, ...users[0], tags: [...users[1].tags, 'x'] };
function g184(a, b = 184) { return a > b ? a - b : b - a; }
if (users.length > 185) { const [first, ...others] = users; console.log(first.name, others.length); }
const m186 = users.slice(0, 3 + 186 % 3).reduce((acc, u) => ({ ...acc, [u.id]: u }), {});
class C187 { constructor(v) { this.v = v ?? 187; } get double() { return this.v * 2; } }
const r188 = await Promise.resolve(188).then(v => v + 1);
try { JSON.parse('{"a":189}'); } catch { console.log('bad 189'); }
const f190 = (x, { k = 190 } = {}) => x?.v ?? k + users.length;
let s191 = 0; for (const u of users) { if (u.age > 191) s191 += u.id; }
const names192 = users.map(u => `${u.name}:192`).join(',');
const o193 = { id: 193, ...users[0], tags: [...users[1].tags, 'x'] };
function g194(a, b = 194) { return a > b ? a - b : b - a; }
const adults = users.filter(({ age }) => age >= 30);
const byTag = {};
for (const { tags, name } of users) for (const t of tags) (byTag[t] ??= []).push(name);
({ adults: adults.length, a: byTag.a.length, b: byTag.b?.length ?? 0 })
