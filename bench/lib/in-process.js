/**
 * udcli run in the bench's own process through its `main` (the built CLI, IO injected), as the
 * tests run it: for set-up and clean-up a --smoke run would otherwise spawn a process for
 * (npm test runs it: each process costs it more CPU than the command). Never for a measured run.
 */
import { PassThrough } from 'node:stream';

/**
 * Runs `udcli ...argv` with `env` as its whole environment; a non-zero exit throws with its stderr.
 * @param {string[]} argv @param {NodeJS.ProcessEnv} env
 */
export async function udcliHere(argv, env) {
  const { main } = await import('../../dist/cli/main.js');
  const stdout = new PassThrough().resume();
  const stderr = new PassThrough();
  let err = '';
  stderr.setEncoding('utf8').on('data', (d) => (err += d));
  const io = {
    stdin: new PassThrough(),
    stdout,
    stderr,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env,
    onSignals: () => () => undefined,
  };
  const code = await main(argv, io);
  if (code !== 0) throw new Error(`udcli ${argv.join(' ')} (in the bench's process): exit ${code}\n${err}`);
}
