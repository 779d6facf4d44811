/**
 * The agi challenge store (SERVICE.md: Signatures / agi): each challenge is a session and a key of
 * 32 hex digits from a CSPRNG, bound to the api_key that asked for it, alive 300 s, and used up
 * by its first signed request, good or bad. In memory: a challenge is meant for the retry that
 * follows within milliseconds, and a restarted sandbox simply hands out a fresh one.
 */
import { randomBytes } from 'node:crypto';
import type { AgiChallenge } from '../../domain/agi-signing.js';

export const CHALLENGE_TTL_MS = 300_000;
/** Open challenges kept at most: a flood of unsigned requests evicts the oldest, never grows memory. */
export const MAX_OPEN_CHALLENGES = 100_000;

interface OpenChallenge extends AgiChallenge {
  apiKey: string;
  expiresAtMs: number;
}

export interface ChallengeStore {
  issue(apiKey: string, nowMs: number): AgiChallenge;
  /** Removes and returns the challenge, or undefined when unknown, used, expired or another key's. */
  take(session: string, apiKey: string, nowMs: number): AgiChallenge | undefined;
  readonly size: number;
}

export interface ChallengeStoreOptions {
  limit?: number;
  /** Where sessions and keys come from: the CSPRNG, or in tests the worked examples' values. */
  token?: () => string;
}

/** Bytes of one session or key (32 hex digits). */
const TOKEN_BYTES = 16;
/** Tokens cut from one CSPRNG call: a `randomBytes` call each cost more than the rest of issuing a challenge. */
const TOKENS_PER_FILL = 256;

/**
 * Sessions and keys from the CSPRNG, each its own 16 bytes of a pool filled by one `randomBytes` call and
 * refilled when used up: no byte is handed out twice.
 */
function pooledRandomTokens(): () => string {
  let pool = Buffer.alloc(0);
  let offset = 0;
  return () => {
    if (offset + TOKEN_BYTES > pool.length) {
      pool = randomBytes(TOKEN_BYTES * TOKENS_PER_FILL);
      offset = 0;
    }
    const token = pool.toString('hex', offset, offset + TOKEN_BYTES);
    offset += TOKEN_BYTES;
    return token;
  };
}

export function createChallengeStore({
  limit = MAX_OPEN_CHALLENGES,
  token = pooledRandomTokens(),
}: ChallengeStoreOptions = {}): ChallengeStore {
  // Insertion order is expiry order (one lifetime for all), so expired ones are at the front.
  const open = new Map<string, OpenChallenge>();

  function sweep(nowMs: number): void {
    for (const [session, challenge] of open) {
      if (challenge.expiresAtMs > nowMs && open.size < limit) break;
      open.delete(session);
    }
  }

  return {
    issue(apiKey, nowMs) {
      sweep(nowMs);
      const session = token().toLowerCase();
      const key = token();
      open.set(session, { session, key, apiKey, expiresAtMs: nowMs + CHALLENGE_TTL_MS });
      return { session, key };
    },
    take(session, apiKey, nowMs) {
      const challenge = open.get(session.toLowerCase());
      if (!challenge) return undefined;
      open.delete(challenge.session);
      if (challenge.expiresAtMs <= nowMs || challenge.apiKey !== apiKey) return undefined;
      return { session: challenge.session, key: challenge.key };
    },
    get size() {
      return open.size;
    },
  };
}
