const s = `line1
line2 ${1 + 1}
line3`;
s.split('\n')
