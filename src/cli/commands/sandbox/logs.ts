/**
 * `udcli sandbox logs [--follow] [--json]`: the detached sandbox's log file (its start-up
 * messages and one line per request). `--json` prints only the request lines, each as the JSON
 * object `GET /_sandbox/requests` gives (without its id, which starts again with each sandbox).
 * `--follow` keeps printing what is appended until Ctrl-C, like `tail -f`, and carries on
 * across a restart (the file truncated or made anew).
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
  private carry = '';
  private decoder = new StringDecoder('utf8');

  constructor(private readonly path: string) {}

  /** New whole lines since the last call; [] when the file is absent (a sandbox not started yet). */
  async read(): Promise<string[]> {
    let file: FileHandle;
    try {
      file = await open(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    try {
      const { size } = await file.stat();
      if (size < this.offset) {
        // A new detached sandbox started the file again: read it from the top.
        this.offset = 0;
        this.carry = '';
        this.decoder = new StringDecoder('utf8');
      }
      const buffer = Buffer.alloc(CHUNK_BYTES);
      let text = this.carry;
      while (this.offset < size) {
        const { bytesRead } = await file.read(buffer, 0, Math.min(CHUNK_BYTES, size - this.offset), this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        text += this.decoder.write(buffer.subarray(0, bytesRead));
      }
      const end = text.lastIndexOf('\n');
      this.carry = text.slice(end + 1);
      return end === -1 ? [] : text.slice(0, end).split('\n');
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

  const first = await reader.read();
  if (first.length === 0 && reader.rest().length === 0 && !raw.follow) {
    const { existsSync } = await import('node:fs');
    if (!existsSync(path)) {
      throw new UdcliError(`no sandbox log at ${path}`, {
        hint: 'a sandbox started with `udcli sandbox start --detach` writes it; a foreground sandbox prints its requests on its own output',
      });
    }
  }
  await write(stdout, render(first, json));
  if (!raw.follow) {
    await write(stdout, render(reader.rest(), json));
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
    const text = render(await reader.read(), json);
    if (text !== '') await write(stdout, text);
  }
}
