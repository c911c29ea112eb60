const x = "outer";
const seen = [];
{
  const x = "block";
  seen.push(x);
  {
    let x = "inner";
    x += "!";
    seen.push(x);
  }
  seen.push(x);
}
seen.push(x);
if (true) {
  let y = 1;
  seen.push(typeof y);
}
seen.push(typeof y);
function hoisted() { return "hoisted ok"; }
seen.push(hoisted());
return seen;
