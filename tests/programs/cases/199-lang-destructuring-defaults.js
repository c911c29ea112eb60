const config = { host: "localhost", ports: [8080, 8443], tls: { enabled: false } };
const { host, port = 80, ports: [http, https = 443, extra = "none"], tls: { enabled, cert = "self-signed" } } = config;
const [first, , third = "default", ...rest] = ["a", "b", undefined, "d", "e"];
const { a: renamed, ...others } = { a: 1, b: 2, c: 3 };
let x = 1, y = 2;
[x, y] = [y, x];
return { host, port, http, https, extra, enabled, cert, first, third, rest, renamed, others, swapped: [x, y] };
