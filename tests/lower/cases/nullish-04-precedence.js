const a = null, b = 0;
[(a ?? b) || 'x', a ?? (b || 'y'), (a || b) ?? 'z']
