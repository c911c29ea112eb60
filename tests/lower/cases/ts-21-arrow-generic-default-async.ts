const wrap = async <T = string>(v: T): Promise<{ v: T }> => ({ v });
const g = <T extends unknown[]>(...xs: T): T => xs;
[await wrap(1), g(1, 'a')]
