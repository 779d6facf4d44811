/**
 * Questions on a terminal: the prompt on stderr, the answer from stdin. Kept apart from the
 * argument parsers so start-up code that only parses arguments does not load node:readline.
 */
import { createInterface } from 'node:readline';
import { CancelledError } from '../errors.js';

/** The subset of the factory's IO streams a confirmation prompt needs. */
export interface PromptIO {
  stdin: NodeJS.ReadableStream;
  stderr: NodeJS.WritableStream;
  stdinIsTTY: boolean;
  stderrIsTTY: boolean;
}

/**
 * Asks a yes/no question on a terminal (prompt on stderr, answer from stdin). Returns true when
 * it need not ask: `--yes`, or stdin/stderr not a terminal (scripts and CI). Any answer but
 * y/yes throws CancelledError, so nothing is sent.
 */
export async function confirm(io: PromptIO, question: string, options: { yes: boolean }): Promise<void> {
  if (options.yes || !io.stdinIsTTY || !io.stderrIsTTY) return;
  io.stderr.write(`${question} [y/N] `);
  const answer = await readLine(io.stdin);
  if (answer === null || !/^\s*(y|yes)\s*$/i.test(answer)) {
    throw new CancelledError('cancelled: nothing was changed');
  }
}

/** One line from a stream, or null at its end. */
export function readLine(input: NodeJS.ReadableStream): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, terminal: false });
    let done = false;
    const finish = (line: string | null) => {
      if (done) return;
      done = true;
      rl.close();
      resolve(line);
    };
    rl.once('line', (line) => finish(line));
    rl.once('close', () => finish(null));
  });
}
