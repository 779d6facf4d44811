/**
 * Safety for support staff (docs/CLI.md): a mutation under a `production: true` profile prints a
 * banner naming the profile, and needs the profile name typed on a terminal, or --yes off one.
 * A batch asks once, before its first request.
 */
import { CancelledError, UsageError } from '../errors.js';
import type { Settings } from '../config/types.js';
import { readLine } from '../runtime/prompt.js';
import { printable } from '../printable.js';
import { redactUrl } from '../redact.js';
import type { Factory } from './factory.js';

/**
 * Call before the first request of a mutation (once for a whole batch). No-op unless the
 * profile is marked production. Throws CancelledError when the typed name does not match, and
 * UsageError off a terminal without --yes; either way nothing has been sent.
 */
export async function confirmMutation(
  factory: Pick<Factory, 'io' | 'globals'>,
  settings: Pick<Settings, 'production' | 'profile'>,
  description: string,
): Promise<void> {
  if (!settings.production) return;
  const { io } = factory;
  io.stderr.write(`⚠ PRODUCTION profile "${settings.profile}": ${description}\n`);
  if (factory.globals().yes) return;
  if (!(io.stdinIsTTY && io.stderrIsTTY)) {
    throw new UsageError('refusing to change production data without --yes off a terminal', {
      hint: `Add --yes to confirm the change under profile "${settings.profile}".`,
    });
  }
  io.stderr.write(`Type the profile name (${settings.profile}) to continue: `);
  const answer = await readLine(io.stdin);
  // Ctrl-D leaves the cursor after the prompt: end that line so "cancelled" starts its own.
  if (answer === null) io.stderr.write('\n');
  if (answer === null || answer.trim() !== settings.profile) {
    throw new CancelledError('cancelled: the profile name did not match; nothing was changed');
  }
}

/**
 * A team with a production profile changing the built-in sandbox (a forgotten `--profile prod`,
 * or `--profile sandbox` beside a production default): said before anything is sent, so nobody
 * takes the exit 0 for a change made in production.
 */
export function sandboxBanner(
  factory: Pick<Factory, 'io'>,
  settings: Pick<Settings, 'productionElsewhere' | 'baseUrl'>,
  description: string,
): void {
  const production = settings.productionElsewhere;
  if (!production) return;
  factory.io.stderr.write(
    `SANDBOX: ${printable(description)} on the built-in sandbox (${redactUrl(settings.baseUrl)}), not on production (${production.map((p) => `--profile ${p}`).join(', ')})\n`,
  );
}

/** The receipt's last word of such a change: where it went. */
export function sandboxReceipt(
  factory: Pick<Factory, 'io'>,
  settings: Pick<Settings, 'productionElsewhere' | 'baseUrl'>,
): void {
  if (!settings.productionElsewhere) return;
  factory.io.stderr.write(
    `SANDBOX: made on the built-in sandbox (${redactUrl(settings.baseUrl)}); production was not changed\n`,
  );
}
