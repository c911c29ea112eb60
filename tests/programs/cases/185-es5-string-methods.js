var s = '  Hello, World! Hello again.  ';
var t = s.replace(/^\s+|\s+$/g, '');
console.log('[' + t + ']');
console.log(t.toUpperCase(), t.indexOf('Hello', 1), t.lastIndexOf('Hello'));
console.log(t.split(/[ ,.!]+/).filter(function (x) { return x; }).join('|'));
console.log(t.charAt(4), t.charCodeAt(0), String.fromCharCode(72, 105));
console.log(t.substring(7, 12), t.substr(-6, 5), t.slice(-7, -1));
return t.replace(/Hello/g, function (m, off) { return m.toLowerCase() + '@' + off; });
