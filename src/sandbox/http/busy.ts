/**
 * Another process (a `udcli sandbox seed`, `load` or `snapshot restore`) may hold the database's
 * write lock for seconds. SQLite's own wait blocks the thread, so the server keeps it to a few
 * ms (SERVER_BUSY_TIMEOUT_MS) and waits here instead, between attempts, with the event loop free
 * to answer other requests; past a bounded total it answers 503 with Retry-After, never a 500
 * "database is locked". An attempt is one whole transaction, rolled back when it fails, so
 * running it again cannot apply a change twice.
 */
import { fail } from './failure.js';

/** The bound on one request's waiting, and the waits between attempts. */
export const BUSY_RETRY = { budgetMs: 1500, firstDelayMs: 5, maxDelayMs: 100, retryAfterSeconds: 1 } as const;

/** SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY, ...), and SQLITE_LOCKED. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it does not fail busy; past the budget, throws the 503 failure (a
 * rejected promise once waiting began). The first attempt runs at once, and its result comes
 * back as it is: a promise only when there was a lock to wait for.
 */
export function runWhileBusy<T>(attempt: () => T, budgetMs: number = BUSY_RETRY.budgetMs): T | Promise<T> {
  const deadline = performance.now() + budgetMs;
  try {
    return attempt();
  } catch (error) {
    if (!isBusy(error)) throw error;
  }
  return retryAfterBusy(attempt, deadline);
}

async function retryAfterBusy<T>(attempt: () => T, deadline: number): Promise<T> {
  for (let delay: number = BUSY_RETRY.firstDelayMs; ; delay = Math.min(delay * 2, BUSY_RETRY.maxDelayMs)) {
    if (performance.now() + delay > deadline) throw fail.databaseBusy(BUSY_RETRY.retryAfterSeconds);
    await sleep(delay);
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
  }
}
