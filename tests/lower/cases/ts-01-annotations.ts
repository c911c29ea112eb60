interface User { id: number; name?: string }
type ID = string | number;
function greet(u: User, greeting: string = 'hi'): string { return `${greeting} ${u.name ?? u.id}`; }
const users: User[] = [{ id: 1 }, { id: 2, name: 'Ann' }];
let id: ID = 'x';
users.map((u: User): string => greet(u))
