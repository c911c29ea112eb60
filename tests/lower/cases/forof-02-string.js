const cs = [];
for (const ch of 'a😀b') cs.push(ch);
cs.map(c => c.length + ":" + c.codePointAt(0))
