// @loose-message
const config = { server: { port: 8080 } };
console.log("port", config.server.port);
const host = config.database.host;
return host;
