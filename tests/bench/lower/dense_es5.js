var users = [];
for (var i = 0; i < 50; i++) users.push({ id: i, name: 'user' + i, age: 20 + (i % 30), tags: i % 3 ? ['a'] : ['a', 'b'] });
var f0 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 0; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s1 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 1) s1 += u.id; }
var names2 = users.map(function (u) { return u.name + ':2'; }).join(',');
var o3 = Object.assign({ id: 3 }, users[0], { tags: users[1].tags.concat(['x']) });
function g4(a, b) { if (b === undefined) b = 4; return a > b ? a - b : b - a; }
if (users.length > 5) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m6 = users.slice(0, 3 + 6 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C7(v) { this.v = v != null ? v : 7; } Object.defineProperty(C7.prototype, 'double', { get: function () { return this.v * 2; } });
var r8 = __await(Promise.resolve(8).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":9}'); } catch (e) { console.log('bad 9'); }
var f10 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 10; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s11 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 11) s11 += u.id; }
var names12 = users.map(function (u) { return u.name + ':12'; }).join(',');
var o13 = Object.assign({ id: 13 }, users[0], { tags: users[1].tags.concat(['x']) });
function g14(a, b) { if (b === undefined) b = 14; return a > b ? a - b : b - a; }
if (users.length > 15) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m16 = users.slice(0, 3 + 16 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C17(v) { this.v = v != null ? v : 17; } Object.defineProperty(C17.prototype, 'double', { get: function () { return this.v * 2; } });
var r18 = __await(Promise.resolve(18).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":19}'); } catch (e) { console.log('bad 19'); }
var f20 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 20; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s21 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 21) s21 += u.id; }
var names22 = users.map(function (u) { return u.name + ':22'; }).join(',');
var o23 = Object.assign({ id: 23 }, users[0], { tags: users[1].tags.concat(['x']) });
function g24(a, b) { if (b === undefined) b = 24; return a > b ? a - b : b - a; }
if (users.length > 25) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m26 = users.slice(0, 3 + 26 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C27(v) { this.v = v != null ? v : 27; } Object.defineProperty(C27.prototype, 'double', { get: function () { return this.v * 2; } });
var r28 = __await(Promise.resolve(28).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":29}'); } catch (e) { console.log('bad 29'); }
var f30 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 30; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s31 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 31) s31 += u.id; }
var names32 = users.map(function (u) { return u.name + ':32'; }).join(',');
var o33 = Object.assign({ id: 33 }, users[0], { tags: users[1].tags.concat(['x']) });
function g34(a, b) { if (b === undefined) b = 34; return a > b ? a - b : b - a; }
if (users.length > 35) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m36 = users.slice(0, 3 + 36 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C37(v) { this.v = v != null ? v : 37; } Object.defineProperty(C37.prototype, 'double', { get: function () { return this.v * 2; } });
var r38 = __await(Promise.resolve(38).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":39}'); } catch (e) { console.log('bad 39'); }
var f40 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 40; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s41 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 41) s41 += u.id; }
var names42 = users.map(function (u) { return u.name + ':42'; }).join(',');
var o43 = Object.assign({ id: 43 }, users[0], { tags: users[1].tags.concat(['x']) });
function g44(a, b) { if (b === undefined) b = 44; return a > b ? a - b : b - a; }
if (users.length > 45) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m46 = users.slice(0, 3 + 46 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C47(v) { this.v = v != null ? v : 47; } Object.defineProperty(C47.prototype, 'double', { get: function () { return this.v * 2; } });
var r48 = __await(Promise.resolve(48).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":49}'); } catch (e) { console.log('bad 49'); }
var f50 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 50; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s51 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 51) s51 += u.id; }
var names52 = users.map(function (u) { return u.name + ':52'; }).join(',');
var o53 = Object.assign({ id: 53 }, users[0], { tags: users[1].tags.concat(['x']) });
function g54(a, b) { if (b === undefined) b = 54; return a > b ? a - b : b - a; }
if (users.length > 55) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m56 = users.slice(0, 3 + 56 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C57(v) { this.v = v != null ? v : 57; } Object.defineProperty(C57.prototype, 'double', { get: function () { return this.v * 2; } });
var r58 = __await(Promise.resolve(58).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":59}'); } catch (e) { console.log('bad 59'); }
var f60 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 60; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s61 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 61) s61 += u.id; }
var names62 = users.map(function (u) { return u.name + ':62'; }).join(',');
var o63 = Object.assign({ id: 63 }, users[0], { tags: users[1].tags.concat(['x']) });
function g64(a, b) { if (b === undefined) b = 64; return a > b ? a - b : b - a; }
if (users.length > 65) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m66 = users.slice(0, 3 + 66 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C67(v) { this.v = v != null ? v : 67; } Object.defineProperty(C67.prototype, 'double', { get: function () { return this.v * 2; } });
var r68 = __await(Promise.resolve(68).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":69}'); } catch (e) { console.log('bad 69'); }
var f70 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 70; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s71 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 71) s71 += u.id; }
var names72 = users.map(function (u) { return u.name + ':72'; }).join(',');
var o73 = Object.assign({ id: 73 }, users[0], { tags: users[1].tags.concat(['x']) });
function g74(a, b) { if (b === undefined) b = 74; return a > b ? a - b : b - a; }
if (users.length > 75) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m76 = users.slice(0, 3 + 76 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C77(v) { this.v = v != null ? v : 77; } Object.defineProperty(C77.prototype, 'double', { get: function () { return this.v * 2; } });
var r78 = __await(Promise.resolve(78).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":79}'); } catch (e) { console.log('bad 79'); }
var f80 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 80; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s81 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 81) s81 += u.id; }
var names82 = users.map(function (u) { return u.name + ':82'; }).join(',');
var o83 = Object.assign({ id: 83 }, users[0], { tags: users[1].tags.concat(['x']) });
function g84(a, b) { if (b === undefined) b = 84; return a > b ? a - b : b - a; }
if (users.length > 85) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m86 = users.slice(0, 3 + 86 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C87(v) { this.v = v != null ? v : 87; } Object.defineProperty(C87.prototype, 'double', { get: function () { return this.v * 2; } });
var r88 = __await(Promise.resolve(88).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":89}'); } catch (e) { console.log('bad 89'); }
var f90 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 90; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s91 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 91) s91 += u.id; }
var names92 = users.map(function (u) { return u.name + ':92'; }).join(',');
var o93 = Object.assign({ id: 93 }, users[0], { tags: users[1].tags.concat(['x']) });
function g94(a, b) { if (b === undefined) b = 94; return a > b ? a - b : b - a; }
if (users.length > 95) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m96 = users.slice(0, 3 + 96 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C97(v) { this.v = v != null ? v : 97; } Object.defineProperty(C97.prototype, 'double', { get: function () { return this.v * 2; } });
var r98 = __await(Promise.resolve(98).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":99}'); } catch (e) { console.log('bad 99'); }
var f100 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 100; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s101 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 101) s101 += u.id; }
var names102 = users.map(function (u) { return u.name + ':102'; }).join(',');
var o103 = Object.assign({ id: 103 }, users[0], { tags: users[1].tags.concat(['x']) });
function g104(a, b) { if (b === undefined) b = 104; return a > b ? a - b : b - a; }
if (users.length > 105) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m106 = users.slice(0, 3 + 106 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C107(v) { this.v = v != null ? v : 107; } Object.defineProperty(C107.prototype, 'double', { get: function () { return this.v * 2; } });
var r108 = __await(Promise.resolve(108).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":109}'); } catch (e) { console.log('bad 109'); }
var f110 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 110; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s111 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 111) s111 += u.id; }
var names112 = users.map(function (u) { return u.name + ':112'; }).join(',');
var o113 = Object.assign({ id: 113 }, users[0], { tags: users[1].tags.concat(['x']) });
function g114(a, b) { if (b === undefined) b = 114; return a > b ? a - b : b - a; }
if (users.length > 115) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m116 = users.slice(0, 3 + 116 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C117(v) { this.v = v != null ? v : 117; } Object.defineProperty(C117.prototype, 'double', { get: function () { return this.v * 2; } });
var r118 = __await(Promise.resolve(118).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":119}'); } catch (e) { console.log('bad 119'); }
var f120 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 120; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s121 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 121) s121 += u.id; }
var names122 = users.map(function (u) { return u.name + ':122'; }).join(',');
var o123 = Object.assign({ id: 123 }, users[0], { tags: users[1].tags.concat(['x']) });
function g124(a, b) { if (b === undefined) b = 124; return a > b ? a - b : b - a; }
if (users.length > 125) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m126 = users.slice(0, 3 + 126 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C127(v) { this.v = v != null ? v : 127; } Object.defineProperty(C127.prototype, 'double', { get: function () { return this.v * 2; } });
var r128 = __await(Promise.resolve(128).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":129}'); } catch (e) { console.log('bad 129'); }
var f130 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 130; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s131 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 131) s131 += u.id; }
var names132 = users.map(function (u) { return u.name + ':132'; }).join(',');
var o133 = Object.assign({ id: 133 }, users[0], { tags: users[1].tags.concat(['x']) });
function g134(a, b) { if (b === undefined) b = 134; return a > b ? a - b : b - a; }
if (users.length > 135) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m136 = users.slice(0, 3 + 136 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C137(v) { this.v = v != null ? v : 137; } Object.defineProperty(C137.prototype, 'double', { get: function () { return this.v * 2; } });
var r138 = __await(Promise.resolve(138).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":139}'); } catch (e) { console.log('bad 139'); }
var f140 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 140; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s141 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 141) s141 += u.id; }
var names142 = users.map(function (u) { return u.name + ':142'; }).join(',');
var o143 = Object.assign({ id: 143 }, users[0], { tags: users[1].tags.concat(['x']) });
function g144(a, b) { if (b === undefined) b = 144; return a > b ? a - b : b - a; }
if (users.length > 145) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m146 = users.slice(0, 3 + 146 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C147(v) { this.v = v != null ? v : 147; } Object.defineProperty(C147.prototype, 'double', { get: function () { return this.v * 2; } });
var r148 = __await(Promise.resolve(148).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":149}'); } catch (e) { console.log('bad 149'); }
var f150 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 150; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s151 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 151) s151 += u.id; }
var names152 = users.map(function (u) { return u.name + ':152'; }).join(',');
var o153 = Object.assign({ id: 153 }, users[0], { tags: users[1].tags.concat(['x']) });
function g154(a, b) { if (b === undefined) b = 154; return a > b ? a - b : b - a; }
if (users.length > 155) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m156 = users.slice(0, 3 + 156 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C157(v) { this.v = v != null ? v : 157; } Object.defineProperty(C157.prototype, 'double', { get: function () { return this.v * 2; } });
var r158 = __await(Promise.resolve(158).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":159}'); } catch (e) { console.log('bad 159'); }
var f160 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 160; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s161 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 161) s161 += u.id; }
var names162 = users.map(function (u) { return u.name + ':162'; }).join(',');
var o163 = Object.assign({ id: 163 }, users[0], { tags: users[1].tags.concat(['x']) });
function g164(a, b) { if (b === undefined) b = 164; return a > b ? a - b : b - a; }
if (users.length > 165) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m166 = users.slice(0, 3 + 166 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C167(v) { this.v = v != null ? v : 167; } Object.defineProperty(C167.prototype, 'double', { get: function () { return this.v * 2; } });
var r168 = __await(Promise.resolve(168).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":169}'); } catch (e) { console.log('bad 169'); }
var f170 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 170; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s171 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 171) s171 += u.id; }
var names172 = users.map(function (u) { return u.name + ':172'; }).join(',');
var o173 = Object.assign({ id: 173 }, users[0], { tags: users[1].tags.concat(['x']) });
function g174(a, b) { if (b === undefined) b = 174; return a > b ? a - b : b - a; }
if (users.length > 175) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m176 = users.slice(0, 3 + 176 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C177(v) { this.v = v != null ? v : 177; } Object.defineProperty(C177.prototype, 'double', { get: function () { return this.v * 2; } });
var r178 = __await(Promise.resolve(178).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":179}'); } catch (e) { console.log('bad 179'); }
var f180 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 180; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s181 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 181) s181 += u.id; }
var names182 = users.map(function (u) { return u.name + ':182'; }).join(',');
var o183 = Object.assign({ id: 183 }, users[0], { tags: users[1].tags.concat(['x']) });
function g184(a, b) { if (b === undefined) b = 184; return a > b ? a - b : b - a; }
if (users.length > 185) { var first = users[0], others = users.slice(1); console.log(first.name, others.length); }
var m186 = users.slice(0, 3 + 186 % 3).reduce(function (acc, u) { var r = Object.assign({}, acc); r[u.id] = u; return r; }, {});
function C187(v) { this.v = v != null ? v : 187; } Object.defineProperty(C187.prototype, 'double', { get: function () { return this.v * 2; } });
var r188 = __await(Promise.resolve(188).then(function (v) { return v + 1; }));
try { JSON.parse('{"a":189}'); } catch (e) { console.log('bad 189'); }
var f190 = function (x, o) { var k = (o === undefined ? {} : o).k; if (k === undefined) k = 190; var v = x == null ? undefined : x.v; return v != null ? v : k + users.length; };
var s191 = 0; for (var i = 0; i < users.length; i++) { var u = users[i]; if (u.age > 191) s191 += u.id; }
var names192 = users.map(function (u) { return u.name + ':192'; }).join(',');
var o193 = Object.assign({ id: 193 }, users[0], { tags: users[1].tags.concat(['x']) });
function g194(a, b) { if (b === undefined) b = 194; return a > b ? a - b : b - a; }
var adults = users.filter(function (u) { return u.age >= 30; });
var byTag = {};
for (var j = 0; j < users.length; j++) { var tags = users[j].tags, name = users[j].name; for (var k = 0; k < tags.length; k++) { var t = tags[k]; (byTag[t] || (byTag[t] = [])).push(name); } }
return { adults: adults.length, a: byTag.a.length, b: byTag.b ? byTag.b.length : 0 };
