/**
 * Every dependency with an install script is allowed or denied on purpose in package.json's
 * `allowScripts` (npm 11 then neither runs nor warns about it: a clean install prints no
 * `install-scripts` warning), and @scarf/scarf (through swagger-ui-dist), whose script reports
 * installs, is denied, with its own documented opt-out (`scarfSettings.enabled: false`) kept for
 * the npm versions that know no `allowScripts` (issue 51, point 8).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const read = (file: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8'));
const pkg = read('package.json') as { allowScripts?: Record<string, boolean>; scarfSettings?: { enabled?: boolean } };
const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };

/** The package names in the lock file whose install has a script (the root's own aside). */
const withScripts = Object.entries(lock.packages)
  .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
  .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));

describe('install scripts', () => {
  it('each one is allowed or denied in allowScripts', () => {
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(typeof pkg.allowScripts?.[name], name).toBe('boolean');
  });

  it("@scarf/scarf's report is denied, and switched off by its own setting too", () => {
    expect(withScripts).toContain('@scarf/scarf');
    expect(pkg.allowScripts?.['@scarf/scarf']).toBe(false);
    expect(pkg.scarfSettings?.enabled).toBe(false);
  });
});
