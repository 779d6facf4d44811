/** Optional per-api_key rate limit: a fixed one-second window. */
export interface RateLimiter {
  /** Counts one request; returns null when allowed, else the seconds to wait (Retry-After). */
  hit(key: string, nowMs: number): number | null;
}

export function createRateLimiter(perSecond: number): RateLimiter {
  const windows = new Map<string, { second: number; count: number }>();
  return {
    hit(key, nowMs) {
      const second = Math.floor(nowMs / 1000);
      let window = windows.get(key);
      if (!window || window.second !== second) {
        // Forget old windows now and then, so junk keys cannot grow the map without bound.
        if (windows.size > 10_000) for (const [k, w] of windows) if (w.second !== second) windows.delete(k);
        window = { second, count: 0 };
        windows.set(key, window);
      }
      window.count++;
      if (window.count <= perSecond) return null;
      return Math.max(1, Math.ceil(((second + 1) * 1000 - nowMs) / 1000));
    },
  };
}
