/**
 * What every command gets: IO streams, parsed global options, and lazily built dependencies.
 * Commands never reach for process.* or module globals, so tests can hand them fakes.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../client/types.js';
import type { RecordedExchange } from '../har/entry.js';
import type { Settings } from '../config/types.js';
import type { Output } from '../output/types.js';
import type { GlobalOptions, IOStreams } from '../runtime/io.js';

export type { GlobalOptions, IOStreams } from '../runtime/io.js';

export interface Factory {
  readonly io: IOStreams;
  globals(): GlobalOptions;
  /** The resolved profile. Throws UsageError for a missing or broken profile. */
  settings(): Promise<Settings>;
  /**
   * The one API client of this run (memoized). With the built-in sandbox profile and nothing
   * answering on its URL, starts a sandbox there in the background first (an embedded one in
   * this process if that fails) and says so on stderr.
   */
  client(options?: { connections?: number; record?: (exchange: RecordedExchange) => void }): Promise<ApiClient>;
  output(): Promise<Output>;
  /** Closes what the run opened (client pool, embedded sandbox). Called by main. */
  dispose(): Promise<void>;
}

/** A top-level command module (src/cli/commands/<noun>/index.ts), loaded only when used. */
export interface CommandModule {
  /** Async where the noun reads its declared changes (src/cli/change-registry.ts). */
  register(program: Command, factory: Factory): void | Promise<void>;
}
