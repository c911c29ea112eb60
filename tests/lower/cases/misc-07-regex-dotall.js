[/a.b/s.test('a\nb'), /a.b/.test('a\nb'), /[.]/s.test('x')]
