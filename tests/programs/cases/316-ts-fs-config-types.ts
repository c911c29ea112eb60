interface PackageJson {
  name: string;
  version: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
interface TsConfig { compilerOptions: { target: string; strict?: boolean; outDir?: string }; include?: string[] }

const [pkg, tsconfig] = (await Promise.all([
  tools.fs.read_file({ path: "/project/package.json" }),
  tools.fs.read_file({ path: "/project/tsconfig.json" }),
])) as [PackageJson, TsConfig];

const major = (range: string): number => Number(range.replace(/^[\^~]/, "").split(".")[0]);
const deps = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).map(([name, range]) => ({ name, major: major(range) }));
return {
  project: `${pkg.name}@${pkg.version}`,
  strict: tsconfig.compilerOptions.strict ?? false,
  target: tsconfig.compilerOptions.target,
  deps: deps.sort((a, b) => a.name.localeCompare(b.name)),
};
