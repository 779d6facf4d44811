/**
 * Waiting on a condition instead of a sleep or an elapsed-time bound: polls `check` until it
 * returns something other than undefined/false, and fails naming `what` if it never does. The
 * limit only ends a test that would otherwise hang; a passing test never reaches it.
 */
export async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  options: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new GaveUp(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
}

export interface UntilOptions {
  /** When to give up (20 s): only a test that would otherwise hang gets there. */
  timeoutMs?: number;
  /** Between two checks (20 ms): shorter where the moment itself matters, as a kill mid-run. */
  intervalMs?: number;
}

/** until() gave up: the condition never held. */
export class GaveUp extends Error {}

/**
 * Polls `read` until `ok` holds of what it returns, and returns the last value read either way:
 * for a value the test then asserts on, so that a failure shows what was there (the assertion's
 * diff) rather than only that the wait gave up.
 */
export async function settled<T>(
  read: () => T | Promise<T>,
  ok: (value: T) => boolean,
  options: UntilOptions = {},
): Promise<T> {
  let last: { value: T } | undefined;
  try {
    const found = await until(
      async () => {
        last = { value: await read() };
        return ok(last.value) && last;
      },
      'a value to settle',
      options,
    );
    return found.value;
  } catch (error) {
    if (!(error instanceof GaveUp) || last === undefined) throw error;
    return last.value;
  }
}

/** Resolves with the first `event` the emitter sends (its first argument). */
export function nextEvent<T = unknown>(emitter: NodeJS.EventEmitter, event: string): Promise<T> {
  return new Promise((resolve) => emitter.once(event, (value: T) => resolve(value)));
}
