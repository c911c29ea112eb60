var log = '2024-03-01 ERROR disk full\n2024-03-01 INFO ok\n2024-03-02 ERROR net down\n2024-03-03 WARN slow';
var re = /^(\d{4})-(\d{2})-(\d{2}) (ERROR|WARN) (.*)$/gm;
var m, found = [];
while ((m = re.exec(log)) !== null) {
  found.push({ day: +m[3], level: m[4], msg: m[5] });
}
console.log('matches:', found.length);
var words = 'a1b22c333'.match(/\d+/g);
console.log(words);
console.log(/^[a-z]+$/i.test('HeLLo'), 'x-y_z'.replace(/[-_]/g, ' '));
return { found: found, digits: words.join('+'), split: 'a, b,c ,d'.split(/\s*,\s*/) };
