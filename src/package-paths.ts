/**
 * Where udcli's own files are, found here and nowhere else (the linter forbids `import.meta.url`
 * elsewhere in src/). This module is one folder below the package root both as a source
 * (src/package-paths.ts, what the tests run) and built (dist/udcli.cjs, what bin/udcli.js loads:
 * scripts/build.js defines `import.meta.url` there as the bundle's own file), so one relative
 * path holds for both. A path worked out from a module's own depth in src/ broke once everything
 * was one file: the trial bundle looked for bin/udcli.js in /tmp/bin/ (issue 43).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json, bin/ and dist/ (a clone, or the installed package). */
export const PACKAGE_ROOT: string = dirname(dirname(fileURLToPath(import.meta.url)));

/** bin/udcli.js: what a detached `sandbox start` runs again as its own process. */
export const BIN_PATH: string = join(PACKAGE_ROOT, 'bin', 'udcli.js');

/** The demo data seeded into a database at the latest schema, serialized by the build (scripts/demo-image.js). */
export const DEMO_IMAGE_PATH: string = join(PACKAGE_ROOT, 'dist', 'demo-sandbox.db');

/** The help bin/udcli.js prints for `udcli`, `--help`, `-h` and `--version` (scripts/render-root-help.js). */
export const ROOT_HELP_PATH: string = join(PACKAGE_ROOT, 'dist', 'root-help.json');

/**
 * `require` as udcli's own code has it: packages resolve from the package root's node_modules
 * (and above), the same from src/ and from dist/. It also spares an ES module the CJS-to-ESM
 * translation of a CommonJS package (src/cli/commander.ts).
 */
export const packageRequire: NodeJS.Require = createRequire(import.meta.url);

/** The folder of the change declarations when run from the sources (the build lists them: scripts/build.js). */
export const CHANGES_SOURCE_DIR: string = join(PACKAGE_ROOT, 'src', 'cli', 'changes');

/** package.json's version, written into the built file by scripts/build.js (absent when run from the sources). */
declare const UDCLI_VERSION: string | undefined;

let version: string | undefined = typeof UDCLI_VERSION === 'string' ? UDCLI_VERSION : undefined;

/** The version in package.json. */
export function packageVersion(): string {
  // require() of JSON: importing node:fs into an ES module costs ~1.5 ms of start-up.
  version ??= (packageRequire(join(PACKAGE_ROOT, 'package.json')) as { version: string }).version;
  return version;
}
