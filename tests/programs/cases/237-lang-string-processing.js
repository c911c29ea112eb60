const text = `The quick brown fox. The lazy dog!
A fox, a dog, and THE end?`;
const sentences = text.split(/[.!?]\s*/).filter(Boolean).length;
const words = text.toLowerCase().match(/[a-z]+/g);
const freq = words.reduce((m, w) => m.set(w, (m.get(w) || 0) + 1), new Map());
const top = [...freq].filter(([w]) => w.length > 1).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 4);
const titleCase = (s) => s.replace(/\b\w/g, (c) => c.toUpperCase());
const camel = (s) => s.replace(/[-_\s]+(.)?/g, (_, c) => (c ? c.toUpperCase() : ""));
const reverseWords = (s) => s.split(" ").reverse().join(" ");
const isPalindrome = (s) => { const t = s.toLowerCase().replace(/[^a-z]/g, ""); return t === [...t].reverse().join(""); };
return { sentences, words: words.length, top, title: titleCase("hello big world"), camel: camel("foo-bar_baz qux"), reversed: reverseWords("one two three"), palindrome: isPalindrome("A man, a plan, a canal: Panama") };
