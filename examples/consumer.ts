// Compiled by the recipes' test (tsc --noEmit): the shipped types as a TypeScript test file sees them.
import { startSandbox, type Sandbox, type SandboxOptions } from 'udcli/sandbox';

const options: SandboxOptions = { data: 'seed.yaml', latency: '40ms', clock: new Date(0) };
export async function use(): Promise<string> {
  const sandbox: Sandbox = await startSandbox(options);
  const when: Date = await sandbox.clock.advance('15m');
  const env: Record<string, string> = sandbox.env();
  await sandbox[Symbol.asyncDispose]();
  return `${sandbox.url} ${sandbox.apiKey} ${when.toISOString()} ${env.UDCLI_BASE_URL}`;
}
