/**
 * The run's streams and global options: the bottom of the run context, so that every layer
 * (output included) can take them without climbing to the commands.
 */

/** How results are printed (-o/--output). */
export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';

export interface IOStreams {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** Listens for process signals (Ctrl-C and friends) until the returned function is called. */
  onSignals(signals: readonly NodeJS.Signals[], listener: (signal: NodeJS.Signals) => void): () => void;
}

export interface GlobalOptions {
  profile?: string;
  /** Explicit -o/--output or --json; undefined means table on a terminal, json otherwise. */
  output?: OutputFormat;
  raw: boolean;
  fields?: string[];
  baseUrl?: string;
  apiKey?: string;
  timeoutMs: number;
  retries: number;
  verbose: boolean;
  color: boolean;
  quiet: boolean;
  yes: boolean;
  /** --har FILE: every exchange added to FILE (HAR 1.2, secrets replaced). */
  har?: string;
  /** --har-keep-personal: players' personal fields recorded as they came, not as placeholders. */
  harKeepPersonal?: boolean;
}
