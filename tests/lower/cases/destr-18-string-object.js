const { length, 0: first } = 'hello';
[length, first]
