/**
 * The foreground `sandbox start` never waits on the reader of its output (issue 21): with
 * stdout a pipe nobody reads, or a terminal nobody reads (a pty whose reader stopped, as Ctrl-S
 * does), every request is still answered, memory stays bounded, lines beyond the buffer are
 * dropped and counted once the output moves again, and SIGTERM ends it. The built binary: its
 * stdout is the subject.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTLET_BUFFER_BYTES } from '../../src/cli/commands/sandbox/log-outlet.js';
import { BIN } from './harness.js';
import { until } from '../until.js';
import { fileScratch } from '../scratch.js';

const scratch = fileScratch('udcli-e2e-output-');

const START = ['sandbox', 'start', '--port', '0', '--db', ':memory:', '--seed', 'none'];

/** The binary with stdout a pipe (or, `onTerminal`, a pty read by `script`, whose own output is that pipe). */
function launch(name: string, onTerminal: boolean): ChildProcessWithoutNullStreams {
  const env = { PATH: process.env.PATH, NO_COLOR: '1', UDCLI_DATA_DIR: join(scratch, name) };
  if (!onTerminal) return spawn(process.execPath, [BIN, ...START], { env });
  const command = [process.execPath, BIN, ...START].map((a) => `'${a}'`).join(' ');
  return spawn('script', ['-qec', `exec ${command} 2>/dev/null`, '/dev/null'], { env });
}

/** Reads stdout until the URL line, then stops reading it for good (the pipe fills, then stalls). */
async function urlThenStall(child: ChildProcessWithoutNullStreams): Promise<string> {
  let text = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in time; got ${JSON.stringify(text)}`)), 20_000);
    const onData = (d: Buffer) => {
      text += d.toString('utf8');
      const m = /(http:\/\/\S+)\r?\n/.exec(text);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stdout.pause();
        resolve(m[1]!);
      }
    };
    child.stdout.on('data', onData);
  });
  return url;
}

/** The sandbox's own pid: the child itself, or under `script` the node process it runs. */
function sandboxPid(child: ChildProcessWithoutNullStreams, onTerminal: boolean): number {
  if (!onTerminal) return child.pid!;
  const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
  return Number(children[0]);
}

/** Running, not yet a zombie (under `script`, whose own output is stalled, nobody reaps it at once). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+[ZX]/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits until the process is gone (its stdio may stay open: nobody reads it). */
async function exited(pid: number): Promise<void> {
  await until(() => !alive(pid), `pid ${pid} to exit`);
}

/**
 * Each request's line is about 1.1 KB (its path and a query value near the 1,024 characters a
 * value may have, QUERY_LIMITS in src/sandbox/http/query.ts): the buffers fill with fewer requests
 * than lines of 500 bytes took, for the same bytes.
 */
const PAD = 'p'.repeat(1000);
/** Lines of FILL requests: about 750 KB, over twice what the outlet holds (256 KiB) and the pipe or pty besides. */
const FILL = 700;

/** `total` requests, `parallel` at a time, each with a long path so the lines fill any buffer fast. */
async function hammer(url: string, total: number, parallel = 20): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const pad = PAD;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < total) {
        const i = next++;
        const r = await fetch(`${url}/services/rest/v1/nothing-${i}.json?pad=${pad}`);
        await r.arrayBuffer();
        statuses.push(r.status);
      }
    }),
  );
  return statuses;
}

describe.each([
  ['a pipe nobody reads', false],
  ['a terminal nobody reads (pty)', true],
])('sandbox start with stdout %s', (_name, onTerminal) => {
  it('answers every request, and exits on SIGTERM with its output still unread', async () => {
    const child = launch(onTerminal ? 'pty' : 'pipe', onTerminal);
    try {
      const url = await urlThenStall(child);
      const pid = sandboxPid(child, onTerminal);
      const statuses = await hammer(url, FILL);
      expect(statuses).toHaveLength(FILL);
      expect(statuses.every((s) => s === 404)).toBe(true);
      // How much it kept meanwhile: the next test, which reads the output once it moves again.
      process.kill(pid, 'SIGTERM');
      await exited(pid);
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});

describe('when the output moves again', () => {
  it('says how many lines were dropped, then goes on', async () => {
    const child = launch('resume', false);
    try {
      const url = await urlThenStall(child);
      await hammer(url, FILL);
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString('utf8')));
      child.stdout.resume();
      await until(() => /udcli sandbox: \d+ log lines dropped/.test(text), 'the note of the dropped lines');
      const dropped = Number(/udcli sandbox: (\d+) log lines dropped/.exec(text)?.[1]);
      expect(dropped).toBeLessThan(FILL);
      // Bounded: what got through is at most the sandbox's buffer, the pipe's (64 KiB on Linux) and
      // what this process's paused stream read ahead (up to 64 KiB), with room for as much again;
      // each line is over 1,000 bytes. An outlet twice as large would let ~690 of the 700 through.
      const keptAtMost = Math.ceil((OUTLET_BUFFER_BYTES + 256 * 1024) / 1000);
      expect(FILL - dropped).toBeLessThanOrEqual(keptAtMost);
      // The lines after the note are whole request lines again.
      await hammer(url, 5, 1);
      await until(
        () => /nothing-\d+\.json\?pad=p+ 404 /.test(text.split('log lines dropped')[1] ?? ''),
        'a whole request line after the note',
      );
      child.kill('SIGTERM');
      await exited(child.pid!);
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});
