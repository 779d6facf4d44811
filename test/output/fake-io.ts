/** IOStreams over in-memory streams, for running output and main in-process. */
import { PassThrough, Writable } from 'node:stream';
import type { IOStreams } from '../../src/ops/factory.js';

export interface FakeIO {
  io: IOStreams;
  stdout(): string;
  stderr(): string;
}

class Collector extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (error?: Error | null) => void): void {
    this.text += chunk.toString('utf8');
    cb();
  }
}

export function fakeIO(
  options: { tty?: boolean; stderrTTY?: boolean; env?: NodeJS.ProcessEnv; stdin?: string } = {},
): FakeIO {
  const out = new Collector();
  const err = new Collector();
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  return {
    io: {
      stdin,
      stdout: out,
      stderr: err,
      stdinIsTTY: false,
      stdoutIsTTY: options.tty ?? false,
      stderrIsTTY: options.stderrTTY ?? options.tty ?? false,
      env: options.env ?? {},
      onSignals: () => () => {},
    },
    stdout: () => out.text,
    stderr: () => err.text,
  };
}
