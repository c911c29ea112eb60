['\u{1F600}'.length, '\x41\u0042', 'line\
continued']
