let r = '';
outer: { inner: { r += 'a'; break outer; } r += 'b'; }
r
