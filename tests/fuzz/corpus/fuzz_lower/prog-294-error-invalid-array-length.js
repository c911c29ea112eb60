// @loose-message
const size = -5;
const buffer = new Array(size);
return buffer.length;
