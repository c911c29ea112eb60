// @loose-message
const api = { list() { return [1, 2]; } };
const items = api.list();
const count = api.count();
return { items, count };
