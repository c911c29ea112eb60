// @loose-message
const total = 10;
console.log("total is", total);
return totl * 2;
