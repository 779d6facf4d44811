/**
 * "not found: achievement LEVEL_1O" is more use with the name that was meant: after a 404 for
 * the developer_id or sku a command was given, the known names are listed once and the closest
 * one (if any is close) goes into the hint, with the command that lists them all.
 */
import { ApiError } from '../errors.js';

/** Edit distance (insertions, deletions, substitutions), case-insensitive. */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[t.length]!;
}

/** The known name nearest to `typed`, when it is near enough to be a typo (a third of its length, at least 2). */
export function closest(typed: string, known: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(typed.length / 3));
  let best: { name: string; d: number } | undefined;
  for (const name of known) {
    if (name === typed) continue;
    const d = distance(typed, name);
    if (d <= limit && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/**
 * Rethrows `error`; when it is the service's 404 for `what` (`achievement`, `product`) named
 * `typed`, first adds a hint: the closest known name, and `listCommand` to see them all.
 * Failing to list the names leaves the error as it was.
 */
export async function withSuggestion(
  error: unknown,
  args: { what: string; typed: string; listCommand: string; known: () => Promise<string[]> },
): Promise<never> {
  if (
    error instanceof ApiError &&
    !error.hint &&
    !error.withoutEnvelope &&
    error.message.startsWith(`not found: ${args.what} `)
  ) {
    const known = await args.known().catch(() => null);
    if (known) {
      const near = closest(args.typed, known);
      error.hint = near
        ? `did you mean ${near}? list them with: ${args.listCommand}`
        : `list them with: ${args.listCommand}`;
    }
  }
  throw error;
}
