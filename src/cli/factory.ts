/**
 * What every command gets: IO streams, parsed global options, and lazily built dependencies.
 * Commands never reach for process.* or module globals, so tests can hand them fakes.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../client/types.js';
import type { Settings } from '../config/types.js';
import type { Output, OutputFormat } from '../output/types.js';

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
}

export interface Factory {
  readonly io: IOStreams;
  globals(): GlobalOptions;
  /** The resolved profile. Throws UsageError for a missing or broken profile. */
  settings(): Promise<Settings>;
  /**
   * The one API client of this run (memoized). With the built-in sandbox profile and nothing
   * answering on its URL, starts an embedded sandbox in-process first and says so on stderr.
   */
  client(options?: { connections?: number }): Promise<ApiClient>;
  output(): Promise<Output>;
  /** Closes what the run opened (client pool, embedded sandbox). Called by main. */
  dispose(): Promise<void>;
}

/** A top-level command module (src/cli/commands/<noun>/index.ts), loaded only when used. */
export interface CommandModule {
  register(program: Command, factory: Factory): void;
}
