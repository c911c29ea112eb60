(() => { console.log('iife ran'); })();
((a, b) => a * b)(6, 7)
