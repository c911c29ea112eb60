[typeof notDeclaredAnywhere, typeof null, typeof (() => 1), typeof Symbol()]
