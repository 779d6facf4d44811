/**
 * `import()` of a package or built-in, from a file of its own: scripts/build.js emits this module
 * as dist/dynamic-import.cjs, loaded with require(), so the built CommonJS files reach ES-only
 * packages (chalk, ora) and on-demand built-ins through one `import()` that is Node's own. Bare
 * names and `node:` built-ins only: they resolve the same from here as from any module of the
 * package.
 */
export function dynamicImport<T>(specifier: string): Promise<T> {
  return import(specifier) as Promise<T>;
}
