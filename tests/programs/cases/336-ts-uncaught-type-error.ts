// @loose-message
interface Node { value: number; next?: Node }
const list: Node = { value: 1, next: { value: 2 } };
let sum = 0;
let cur: Node | undefined = list;
for (let i = 0; i < 3; i++) {
  sum += cur!.value;
  cur = cur!.next;
}
return sum;
