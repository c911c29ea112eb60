const routes = { home: '/', about: '/about' } satisfies Record<string, string>;
Object.keys(routes).length
