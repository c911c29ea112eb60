var text = 'the quick brown fox jumps over the lazy dog the fox barks';
var counts = {};
var words = text.split(' ');
for (var i = 0; i < words.length; i++) {
  var w = words[i];
  counts[w] = (counts[w] || 0) + 1;
}
var top = Object.keys(counts).sort(function (a, b) {
  return counts[b] - counts[a] || (a < b ? -1 : 1);
}).slice(0, 3);
console.log('distinct words:', Object.keys(counts).length);
return top.map(function (w) { return w + '=' + counts[w]; });
