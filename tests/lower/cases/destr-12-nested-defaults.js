const { a: { b = 'deep' } = {} } = {};
b
