// A decimal exactly half way between two doubles rounds to the even one
// (2^53 + 1 -> 2^53; 2^53 + 3 -> 2^53 + 4), in every string-to-number path
// and in literals; near-halves and long inputs round to the nearest.
const texts = ['9007199254740993', '9007199254740995', '9007199254740993.0', '9007199254740993e0',
    '18014398509481987', '1e23', '8.98846567431158e307', '2.2250738585072011e-308',
    '2.4703282292062327e-324', '2.4703282292062328e-324', '123456789012345678901234567890',
    '0.30000000000000004440892098500626161694526672363281249', '-9007199254740993'];
const out = texts.map((s) => [s, String(Number(s)), String(JSON.parse(s)), String(parseFloat(s)), Number(s) === +s]);
out.push([String(9007199254740993), String(9007199254740993 === 9007199254740992), String(1e23 === Number('1e23'))]);
out
