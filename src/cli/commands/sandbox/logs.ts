/**
 * `udcli sandbox logs [--follow] [--json]`: the detached sandbox's log file (its start-up
 * messages and one line per request). `--json` prints only the request lines, each as the JSON
 * object `GET /_sandbox/requests` gives (without its id, which starts again with each sandbox).
 * `--follow` keeps printing what is appended until Ctrl-C, like `tail -F`: it waits for a file
 * not there yet, and reads from the top a file truncated or replaced (another inode).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { UdcliError } from '../../../errors.js';
import { isClosed, write } from '../../../output/pipe.js';
import type { Factory } from '../../../ops/factory.js';
import { logFilePath } from '../../../sandbox/paths.js';
import { parseRequestLine } from '../../../sandbox/request-line.js';
import { wantsJson } from './json.js';
import { waitForSignal } from './signals.js';

export interface LogsDeps {
  /** Resolves when --follow should stop; default: SIGINT, SIGTERM or SIGHUP. */
  waitForStop?: () => Promise<unknown>;
  /** How often --follow looks for new lines. */
  pollMs?: number;
}

const DEFAULT_POLL_MS = 200;
const CHUNK_BYTES = 64 * 1024;

/** Reads a growing file from where it last stopped, handing on whole lines only. */
class LineReader {
  private offset = 0;
  private ino: number | undefined;
  private carry = '';
  private decoder = new StringDecoder('utf8');

  constructor(private readonly path: string) {}

  /**
   * Hands on the whole lines written since the last call, a chunk at a time (a big log is never
   * held at once); false when the file is absent (no sandbox detached yet).
   */
  async read(onLines: (lines: string[]) => Promise<void> | undefined): Promise<boolean> {
    let file: FileHandle;
    try {
      file = await open(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    try {
      const { size, ino } = await file.stat();
      if (size < this.offset || ino !== this.ino) {
        // The file was truncated, or replaced by another one: read it from the top.
        this.ino = ino;
        this.offset = 0;
        this.carry = '';
        this.decoder = new StringDecoder('utf8');
      }
      const buffer = Buffer.alloc(CHUNK_BYTES);
      while (this.offset < size) {
        const { bytesRead } = await file.read(buffer, 0, Math.min(CHUNK_BYTES, size - this.offset), this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        const text = this.carry + this.decoder.write(buffer.subarray(0, bytesRead));
        const end = text.lastIndexOf('\n');
        this.carry = text.slice(end + 1);
        if (end !== -1) await onLines(text.slice(0, end).split('\n'));
      }
      return true;
    } finally {
      await file.close();
    }
  }

  /** A last line the writer has not ended yet (printed when not following). */
  rest(): string[] {
    return this.carry === '' ? [] : [this.carry];
  }
}

function render(lines: string[], json: boolean): string {
  let out = '';
  for (const line of lines) {
    if (!json) out += `${line}\n`;
    else {
      const record = parseRequestLine(line);
      if (record) out += `${JSON.stringify(record)}\n`;
    }
  }
  return out;
}

export async function logsCommand(factory: Factory, raw: { follow?: boolean; json?: boolean }, deps: LogsDeps = {}): Promise<void> {
  const { stdout, env } = factory.io;
  const json = wantsJson(factory, raw.json);
  const path = logFilePath(env);
  const reader = new LineReader(path);

  const print = (lines: string[]) => write(stdout, render(lines, json));
  const found = await reader.read(print);
  if (!raw.follow) {
    if (!found) {
      throw new UdcliError(`no sandbox log at ${path}`, {
        hint: 'a sandbox started with `udcli sandbox start --detach` writes it; a foreground sandbox prints its requests on its own output',
      });
    }
    await print(reader.rest());
    return;
  }

  let stopped = false;
  const stop = (deps.waitForStop ? deps.waitForStop() : waitForSignal(factory.io)).then(() => {
    stopped = true;
  });
  const pollMs = deps.pollMs ?? DEFAULT_POLL_MS;
  // Until Ctrl-C, or until the reader of our output goes away (`| head`).
  while (!stopped && !isClosed(stdout)) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([stop, new Promise((resolve) => (timer = setTimeout(resolve, pollMs)))]);
    clearTimeout(timer);
    if (stopped) break;
    await reader.read(print);
  }
}
