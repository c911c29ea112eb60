const o = { p: 'P', t(s, v) { return this.p + s[0] + v + s[1]; } };
o.t`<${5}>`
