class Dict { [key: string]: unknown; static [k: string]: any; size = 0; }
const d = new Dict();
d['x'] = 1;
Object.keys(d)
