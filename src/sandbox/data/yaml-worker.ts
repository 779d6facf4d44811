/**
 * The yaml package in a worker thread, for a server reading a data file sent over HTTP: a
 * megabyte of YAML takes the yaml package most of a second, which the server's own thread must
 * not spend (issue 31, 3). The worker holds only the yaml package (its source is the few lines
 * below, so it runs the same from the sources and from dist/), under heap and stack limits of
 * its own: a file that got past the prescan and still exhausts it ends the worker, not the
 * server. One worker at a time: a burst of resets waits its turn rather than multiplying memory.
 */
import { Worker } from 'node:worker_threads';
import type { DataPath } from './validate.js';
import { packageRequire } from '../../package-paths.js';

/** What the yaml package threw, as it crosses threads (its class does not). */
export interface YamlFailure {
  name: string;
  message: string;
  line?: number;
}

export type YamlParsed =
  | { error: YamlFailure; close(): void }
  | { value: unknown; lines(paths: DataPath[]): Promise<Array<number | undefined>>; close(): void };

/** Heap and stack of the worker: a 1 MiB body's document needs a fraction of this. */
export const YAML_WORKER_LIMITS = {
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 32,
  stackSizeMb: 4,
} as const;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { LineCounter, parseDocument, YAMLParseError } = require(workerData.yaml);
const lineCounter = new LineCounter();
let doc;
try {
  doc = parseDocument(workerData.text, { lineCounter, maxAliasCount: workerData.maxAliasCount });
  if (doc.errors.length > 0) throw doc.errors[0];
  parentPort.postMessage({ value: doc.toJS({ maxAliasCount: workerData.maxAliasCount }) });
} catch (error) {
  const line = error instanceof YAMLParseError && error.linePos ? error.linePos[0].line : undefined;
  parentPort.postMessage({ error: { name: String(error && error.name), message: String(error && error.message), line } });
}
parentPort.on('message', ({ paths }) => {
  parentPort.postMessage({
    lines: paths.map((path) => {
      for (let n = path.length; n >= 0; n--) {
        const node = doc.getIn(path.slice(0, n), true);
        const offset = node && node.range ? node.range[0] : undefined;
        if (offset !== undefined) return lineCounter.linePos(offset).line;
      }
      return undefined;
    }),
  });
});
`;

const yamlEntry = packageRequire.resolve('yaml');

const ABORTED: YamlFailure = { name: 'RangeError', message: 'the yaml package ran out of memory or stack' };

let queue: Promise<unknown> = Promise.resolve();
let running = 0;

/** Workers parsing now (0 or 1): a test sees the server's thread free while one runs. */
export const yamlParsesRunning = (): number => running;

function start(text: string, maxAliasCount: number): { parsed: Promise<YamlParsed>; released: Promise<void> } {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { yaml: yamlEntry, text, maxAliasCount },
    resourceLimits: YAML_WORKER_LIMITS,
  });
  worker.unref();
  running++;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    running--;
    void worker.terminate();
    release();
  };
  // Every message in order, whatever listens; an early end of the worker answers what waits.
  const waiting: Array<(message: Record<string, unknown> | undefined) => void> = [];
  let ended = false;
  const next = (): Promise<Record<string, unknown> | undefined> =>
    ended ? Promise.resolve(undefined) : new Promise((resolve) => waiting.push(resolve));
  const end = () => {
    ended = true;
    for (const resolve of waiting.splice(0)) resolve(undefined);
  };
  worker.on('message', (message: Record<string, unknown>) => waiting.shift()?.(message));
  worker.on('error', end);
  worker.on('exit', end);
  const parsed = next().then((first): YamlParsed => {
    if (first === undefined || 'error' in first) {
      close();
      return { error: (first?.error as YamlFailure | undefined) ?? ABORTED, close };
    }
    return {
      value: first.value,
      close,
      lines: async (paths: DataPath[]) => {
        const reply = next();
        worker.postMessage({ paths });
        const answer = await reply;
        return (answer?.lines as Array<number | undefined> | undefined) ?? paths.map(() => undefined);
      },
    };
  });
  return { parsed, released };
}

/**
 * Parses YAML text in a worker (after the one before has been closed): its value, or the yaml
 * package's error. The caller closes it when it needs no more lines.
 */
export function parseYamlOffThread(text: string, maxAliasCount: number): Promise<YamlParsed> {
  const run = queue.then(() => start(text, maxAliasCount));
  queue = run.then((r) => r.released);
  return run.then((r) => r.parsed);
}
