String.raw ? String.raw`a\nb${1}` : 'no String.raw'
