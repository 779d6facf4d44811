/**
 * The replies of the hottest read (GET users/{uid}.json, endpoint flag `cachedReply`), kept as the
 * text sent, until the data they were read from may have changed (repositories/key-cache.ts,
 * dataVersionOf: another connection's commit, or this connection's write to the keys, games,
 * users or plays). A reply is the same for the same request target, key and origin: the target
 * holds the user asked for, the api_key and the format; the origin makes the avatar URLs. Every
 * check of the request still runs before a cached reply is used; only the handler's SELECT, the
 * payload and its serialization are spared.
 */
import type { DataVersion } from '../repositories/key-cache.js';
import type { HandlerResult } from './endpoint.js';
import type { Format } from './envelope.js';

/** Replies remembered at most: beyond, it starts over (made-up targets cannot grow it without bound). */
export const REPLY_CACHE_ENTRIES = 1000;

/** A handler's result with the reply text it makes (serialize of its envelope), made once. */
export interface SentResult extends HandlerResult {
  readonly format: Format;
  readonly text: string;
}

export interface ReplyCache {
  /** The reply for `target` (as sent) at `origin` as of now; undefined when there is none. */
  get(origin: string, target: string): SentResult | undefined;
  /** Remembers the reply for `target` at `origin`, unless nothing may be cached now. */
  set(origin: string, target: string, result: SentResult): void;
}

export function createReplyCache(data: DataVersion, maxEntries = REPLY_CACHE_ENTRIES): ReplyCache {
  // By origin, then target: no key string to build and hash for each request (the origin is the same string each time).
  const entries = new Map<string, Map<string, SentResult>>();
  let size = 0;
  let seen: string | null = null;
  const clear = () => {
    entries.clear();
    size = 0;
  };
  const fresh = (): boolean => {
    const version = data.current();
    if (version === null) return false;
    if (version !== seen) {
      clear();
      seen = version;
    }
    return true;
  };
  return {
    get: (origin, target) => (fresh() ? entries.get(origin)?.get(target) : undefined),
    set(origin, target, result) {
      if (!fresh()) return;
      if (size >= maxEntries) clear();
      let byTarget = entries.get(origin);
      if (byTarget === undefined) {
        byTarget = new Map();
        entries.set(origin, byTarget);
      }
      if (!byTarget.has(target)) size++;
      byTarget.set(target, result);
    },
  };
}
