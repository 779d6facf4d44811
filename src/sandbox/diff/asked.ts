/**
 * What a recorded request asked of its reply's list, for the comparison: an order (`order`,
 * `sort`: spec 4.3), and a limit (its `limit`, at most the documented maximum; the friends
 * list's documented default without one). Only reads ask; a change's reply is no page.
 */
import { LIMITS, PARAMS } from '../../domain/contract.js';
import type { Asked } from './compare.js';
import { effectiveMethod, param, resourceOf, type PlatformExchange } from './exchange.js';

const MAX: Record<string, number> = {
  friends: LIMITS.friends.maxLimit,
  'achievements/user': LIMITS.userAchievements.maxLimit,
};

export function askedOf(exchange: PlatformExchange): Asked {
  if (effectiveMethod(exchange) !== 'GET') return { ordered: false };
  const { resource } = resourceOf(exchange);
  const ordered = param(exchange, PARAMS.order) !== undefined || param(exchange, PARAMS.sort) !== undefined;
  const raw = param(exchange, PARAMS.limit)?.trim();
  const given = raw !== undefined && /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined;
  const max = MAX[resource];
  const limit =
    given !== undefined
      ? Math.min(given, max ?? given)
      : resource === 'friends'
        ? LIMITS.friends.defaultLimit
        : undefined;
  return { ordered, ...(limit !== undefined ? { limit } : {}) };
}
