/**
 * `GET /_sandbox/clock`: the sandbox's time. `POST /_sandbox/clock` with `advance=901s` or
 * `set=2030-01-01T00:00:00Z` (query or form body) moves it and answers the new time; `reset=1`
 * (or `set=now`) puts it back on the real clock. Going backwards is allowed and said so: tokens
 * and challenges issued "later" then last longer. A move out of years 1970-9999 is a 400 naming
 * the bound (virtual-clock.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ClockInputError, parseAdvance, parseSetTime } from '../clock-input.js';
import { registerAdminRoute } from '../http/admin.js';
import { ApiFailure } from '../http/failure.js';
import { parseQuery, Query, splitTarget } from '../http/query.js';
import { ClockRangeError, type VirtualClock } from '../virtual-clock.js';
import type { ClockReply } from '../../domain/sandbox-admin-replies.js';

export const CLOCK_PATH = '/clock';

function clockReply(clock: VirtualClock): ClockReply {
  const now = clock.now();
  return {
    now: new Date(now).toISOString(),
    unix: Math.floor(now / 1000),
    offset_seconds: Math.round(clock.offsetMs() / 1000),
  };
}

/** The query's fields and a form body's, one list (either may carry the instruction). */
function fields(request: FastifyRequest): Query {
  const query = parseQuery(splitTarget(request.url).query);
  const body = typeof request.body === 'string' && request.body !== '' ? parseQuery(request.body) : null;
  return body ? new Query([...query.pairs, ...body.pairs]) : query;
}

function move(clock: VirtualClock, request: FastifyRequest): ClockReply {
  const given = fields(request);
  const advance = given.get('advance');
  const set = given.get('set');
  const reset = given.has('reset') || set?.trim().toLowerCase() === 'now';
  if ([advance !== undefined, set !== undefined, given.has('reset')].filter(Boolean).length !== 1) {
    throw new ApiFailure(
      400,
      'invalid parameter: give advance (e.g. 901s) or set (an ISO date-time, or now), one of them, or reset alone',
    );
  }
  const before = clock.now();
  try {
    if (reset) clock.reset();
    else if (advance !== undefined) clock.advance(parseAdvance(advance) * 1000);
    else clock.set(parseSetTime(set!));
  } catch (error) {
    if (error instanceof ClockInputError || error instanceof ClockRangeError)
      throw new ApiFailure(400, `invalid parameter: ${error.message}`);
    throw error;
  }
  const reply = clockReply(clock);
  const moved = Math.round((clock.now() - before) / 1000);
  return {
    ...reply,
    moved_seconds: moved,
    ...(moved < 0
      ? {
          note: `the clock went back ${-moved} s: tokens, sessions and challenges issued since then last that much longer`,
        }
      : {}),
  };
}

export function registerClockRoutes(app: FastifyInstance, clock: VirtualClock): void {
  registerAdminRoute(app, { method: 'GET', path: CLOCK_PATH, handler: () => clockReply(clock) });
  registerAdminRoute(app, { method: 'POST', path: CLOCK_PATH, handler: (request) => move(clock, request) });
}
