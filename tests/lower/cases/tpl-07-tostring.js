const o = { toString() { return 'custom'; } };
`${o}|${[1, 2]}|${null}|${undefined}|${{}}`
