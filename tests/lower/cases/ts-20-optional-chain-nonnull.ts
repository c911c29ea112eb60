type N = { next?: N; v: number };
const list: N = { v: 1, next: { v: 2 } };
[list.next!.v, list.next?.next?.v ?? 0, list!.next!.next]
