/**
 * Waiting on a condition instead of a sleep or an elapsed-time bound: polls `check` until it
 * returns something other than undefined/false, and fails naming `what` if it never does. The
 * limit only ends a test that would otherwise hang; a passing test never reaches it.
 */
export async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
}

/** Resolves with the first `event` the emitter sends (its first argument). */
export function nextEvent<T = unknown>(emitter: NodeJS.EventEmitter, event: string): Promise<T> {
  return new Promise((resolve) => emitter.once(event, (value: T) => resolve(value)));
}
