// Number(), unary + and arithmetic on strings: the short decimals the engine
// reads without bigints, and the forms around them that take the long way.
const xs = ['42', '-0', '0', '-3.25', '1e6', '1E-7', '12345678901234567', '0.1', '00', '+1', ' 7 ', '.5', '5.',
    '0x1f', '0b101', '1e400', '-', '', 'Infinity', '-Infinity', '1_0', '123456789012345', '1234567890123456',
    '1.5e22', '1.5e23', '-1e-22', '4.35', '0.000001', '1e-400', '7e', '--1', '1.2.3', '\n12\t'];
const rows = xs.map((s) => {
    const n = Number(s);
    return [s, Object.is(n, -0) ? '-0' : String(n), Object.is(+s, n), s * 1 === n || (isNaN(n) && isNaN(s * 1))];
});
const ids = 'id=7 id=0042 id=-5 id=3.50'.match(/-?[\d.]+/g).map(Number);
return { rows, ids, sum: ids.reduce((a, b) => a + b, 0) };
