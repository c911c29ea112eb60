const data = { users: [{ name: 'a', roles: ['x'] }], meta: { count: 1, ok: true, none: null } };
data
