'2020-01-02'.replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/, (...args) => { const g = args[args.length - 1]; return `${g.d}/${g.m}/${g.y}`; })
