/**
 * Output policy as pure functions: format, colour and spinner decisions (docs/CLI.md "Output").
 * No heavy imports here; the writers load chalk/cli-table3/ora only when they are used.
 */
import type { GlobalOptions, IOStreams } from '../runtime/io.js';
import type { OutputFormat } from './types.js';

/** `-o`/`--json` win; otherwise a table on a terminal and JSON when piped. */
export function resolveFormat(explicit: OutputFormat | undefined, stdoutIsTTY: boolean): OutputFormat {
  return explicit ?? (stdoutIsTTY ? 'table' : 'json');
}

/**
 * Colour only in tables: off with --no-color or NO_COLOR (non-empty), on with FORCE_COLOR
 * (other than 0/false), else on when stdout is a terminal.
 */
export function resolveColor(options: {
  format: OutputFormat;
  flag: boolean;
  env: NodeJS.ProcessEnv;
  stdoutIsTTY: boolean;
}): boolean {
  if (options.format !== 'table') return false;
  if (!options.flag) return false;
  if (options.env.NO_COLOR) return false;
  const force = options.env.FORCE_COLOR;
  // As supports-color reads it: present (even empty) forces colour unless it is 0 or false.
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return options.stdoutIsTTY;
}

/** A spinner only on a terminal's stderr, for tables, and not with --quiet. */
export function shouldSpin(
  format: OutputFormat,
  globals: Pick<GlobalOptions, 'quiet'>,
  io: Pick<IOStreams, 'stderrIsTTY'>,
): boolean {
  return io.stderrIsTTY && format === 'table' && !globals.quiet;
}
