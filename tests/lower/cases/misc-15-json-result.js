({ nested: { list: [1, 'two', null, true], obj: {} } })
