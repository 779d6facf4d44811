// Compiled by the recipes' test (tsc --noEmit): the shipped types as a TypeScript test file sees them.
import {
  connectSandbox,
  startSandbox,
  type Sandbox,
  type SandboxConnection,
  type SandboxOptions,
  type SandboxWorker,
} from 'udcli/sandbox';

const options: SandboxOptions = { data: 'seed.yaml', latency: '40ms', clock: new Date(0), process: false };
export async function use(): Promise<string> {
  const sandbox: Sandbox = await startSandbox(options);
  const when: Date = await sandbox.clock.advance('15m');
  const env: Record<string, string> = sandbox.env();
  const connection: SandboxConnection = JSON.parse(JSON.stringify(sandbox.connection));
  const worker: SandboxWorker = await connectSandbox(connection).worker(1);
  await worker.reset();
  await sandbox[Symbol.asyncDispose]();
  return `${sandbox.url} ${sandbox.apiKey} ${when.toISOString()} ${env.UDCLI_BASE_URL} ${worker.gameId}`;
}
