/**
 * `import()` of a package or built-in, from a file of its own: the built CLI (dist/udcli.cjs) is
 * compiled by bin/code-cache.js through node:vm, where an `import()` would need a flag or an
 * experimental loader (with a warning on stderr). scripts/build.js emits this module as
 * dist/dynamic-import.cjs, loaded with require(), whose `import()` is Node's own; the build fails
 * if dist/udcli.cjs holds an `import()` of its own. Bare names and `node:` built-ins only: they
 * resolve the same from here as from any module of the package.
 */
export function dynamicImport<T>(specifier: string): Promise<T> {
  return import(specifier) as Promise<T>;
}
