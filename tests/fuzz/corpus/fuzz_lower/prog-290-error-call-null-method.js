// @loose-message
const handlers = { onSave: null };
console.log("calling handler");
handlers.onSave("doc");
return "saved";
