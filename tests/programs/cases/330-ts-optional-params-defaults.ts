function greet(name: string, greeting?: string, punct: string = "!"): string {
  return `${greeting ?? "Hello"}, ${name}${punct}`;
}
const build = ({ host = "localhost", port = 8080, secure }: { host?: string; port?: number; secure?: boolean } = {}): string =>
  `${secure ? "https" : "http"}://${host}:${port}`;
return [greet("Ada"), greet("Bo", "Hi"), greet("Cy", undefined, "?"), build(), build({ secure: true, port: 443 }), build({ host: "x.io" })];
