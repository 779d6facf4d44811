// vitest globalSetup: one sandbox for the whole run, started before any test file and stopped after the last.
// Each test file takes a worker's own game in it (./grants-1.test.mjs, ./grants-2.test.mjs), so files running
// side by side never see each other's changes.
import { fileURLToPath } from 'node:url';
import { startSandbox } from 'udcli/sandbox';

export default async function setup({ provide }) {
  const sandbox = await startSandbox({ data: fileURLToPath(new URL('../seed.yaml', import.meta.url)) });
  provide('sandbox', sandbox.connection);
  return () => sandbox.stop();
}
