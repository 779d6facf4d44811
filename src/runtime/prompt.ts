/**
 * Questions on a terminal: the prompt on stderr, the answer from stdin. Kept apart from the
 * argument parsers so start-up code that only parses arguments does not load node:readline.
 */
import { createInterface } from 'node:readline';
import { CancelledError, UsageError } from '../errors.js';

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
  if (options.yes || !canAsk(io)) return;
  await ask(io, question);
}

/** True when a question can be asked: stdin and stderr are both a terminal. */
export function canAsk(io: Pick<PromptIO, 'stdinIsTTY' | 'stderrIsTTY'>): boolean {
  return io.stdinIsTTY && io.stderrIsTTY;
}

/**
 * For what cannot be undone (a delete): asks on a terminal, and where it cannot ask (stdin
 * redirected, a script, CI) requires --yes, as gh does, rather than going ahead unasked.
 * Throws UsageError (no --yes) or CancelledError (any answer but y/yes, or end of input).
 */
export async function confirmOrRequireYes(
  io: PromptIO,
  question: string,
  options: { yes: boolean; what: string },
): Promise<void> {
  if (options.yes) return;
  if (!canAsk(io)) {
    throw new UsageError(
      `refusing to ${options.what} without --yes: udcli cannot ask here (${io.stdinIsTTY ? 'stderr' : 'standard input'} is not a terminal)`,
      {
        hint: 'add --yes to go ahead without being asked',
      },
    );
  }
  await ask(io, question);
}

async function ask(io: PromptIO, question: string): Promise<void> {
  io.stderr.write(`${question} [y/N] `);
  const answer = await readLine(io.stdin);
  // Ctrl-D leaves the cursor after the prompt: end that line so "cancelled" starts its own.
  if (answer === null) io.stderr.write('\n');
  if (answer === null || !/^\s*(y|yes)\s*$/i.test(answer)) {
    throw new CancelledError(
      answer === null ? 'cancelled (no answer): nothing was changed' : 'cancelled: nothing was changed',
    );
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

/**
 * Asks for a secret on a terminal (prompt on stderr): nothing typed is echoed. Null at the end of
 * input. Only where canAsk(io).
 */
export function askSecret(io: PromptIO, question: string): Promise<string | null> {
  io.stderr.write(question);
  const input = io.stdin as NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  const raw = input.isTTY === true && typeof input.setRawMode === 'function';
  if (!raw) return readLine(io.stdin);
  return new Promise((resolve) => {
    let typed = '';
    input.setRawMode!(true);
    input.resume();
    const finish = (value: string | null) => {
      input.removeListener('data', onData);
      input.setRawMode!(false);
      input.pause();
      io.stderr.write('\n');
      resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n') return finish(typed);
        // Ctrl-C and Ctrl-D: no answer.
        if (ch === '\u0003' || (ch === '\u0004' && typed === '')) return finish(null);
        if (ch === '\u007f' || ch === '\b') typed = [...typed].slice(0, -1).join('');
        else if (ch >= ' ') typed += ch;
      }
      return undefined;
    };
    input.on('data', onData);
  });
}
