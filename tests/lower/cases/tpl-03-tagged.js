function tag(strings, ...vals) { return strings.raw.join('|') + '#' + strings.join('|') + '#' + vals.join(','); }
tag`a${1}b\n${2}c`
