const m = { a: null };
m.a?.b ?? 'fallback'
