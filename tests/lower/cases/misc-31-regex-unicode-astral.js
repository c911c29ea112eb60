// with the u flag, '.', classes, \S \W \D and astral atoms match a surrogate pair as one character
const s = 'a😀b', e = '😀', g = '𝒳';
const out = [];
out.push(/^.$/u.test(e), /^..$/u.test(e), /^.$/.test(e), /^a.b$/u.test(s), /^.$/su.test(e), /^.$/su.test('\n'),
  /^.$/u.test('\n'));
out.push(/^[😀]$/u.test(e), /^[\u{1F600}-\u{1F64F}]$/u.test(e), /^[\u{1F600}-\u{1F64F}]+$/u.test('😀🙏'),
  /^[\u{1F600}-\u{1F64F}]$/u.test('🚀'), /^[^a]$/u.test(e), /^[^😀]$/u.test(e), /^[^😀]$/u.test('😁'));
out.push(/^\S$/u.test(e), /^\W$/u.test(e), /^\D$/u.test(e), /^\S\S$/u.test(e), /^[\S]$/u.test(e), /^[\s\S]$/u.test(e),
  /^[^\s]$/u.test(e), /^[^\d]+$/u.test(s));
out.push(/^😀+$/u.test('😀😀'), /^\u{1F600}{2}$/u.test('😀😀'), /^\uD83D\uDE00{2}$/u.test('😀😀'),
  /^[a-z𝒳]+$/u.test('ab' + g), /^[a-\u{1F600}]$/u.test('😀'), /^[a-\u{1F600}]$/u.test('😁'),
  /^[\u{10000}-\u{10FFFF}]$/u.test(g));
out.push('x😀y😀'.replace(/./gu, '.'), 'x😀y'.match(/[^x]/gu),
  '😀😀'.match(/(.)\1/u) !== null, /^[\uD83D\uDE00]$/u.test(e), /^[😀-😂]{3}$/u.test('😀😁😂'));
out.push(/^[^\uD800-\uDBFF]$/u.test(e), /^[\uD800-\uDFFF]$/u.test(e), /^[\uD800-\uDFFF]$/u.test('\uD83D'),
  /^.$/u.test('\uD83D'), /^.$/u.test('\uDE00'), /^[^]$/u.test(e), /^[]$/u.test(e));
out.push(/^(?<em>.)x$/u.exec('😀x').groups.em, /^[😀a]{2}$/iu.test('A😀'), /é/u.test('café'));
out
