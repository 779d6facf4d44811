/**
 * One recorded exchange sent again, to the scratch sandbox: the recorded key (a placeholder or
 * real) becomes the scratch key of its game, a recorded auth token a valid one of the same user
 * and game, and a signed change is signed afresh: agi asks for a new challenge first (that step
 * is not compared; the recording's own unsigned request, when it has one, is compared as a step
 * of its own), hmac-sha256-v1 takes a new timestamp.
 */
import { FORM_CONTENT_TYPE } from '../../domain/contract.js';
import { agiSignature, AGI_SESSION_PARAM, AGI_SIG_PARAM } from '../../domain/agi-signing.js';
import {
  canonicalString,
  hmacSha256Hex,
  hmacSignedPairs,
  SIGNATURE_PARAM,
  TIMESTAMP_PARAM,
} from '../../domain/signing.js';
import type { Reply } from './compare.js';
import { envelopeOf, param, resourceOf, type Pairs, type PlatformExchange } from './exchange.js';
import type { Scratch } from './scratch.js';
import type { SeedKey } from './seed.js';

export interface ReplayContext {
  scratch: Scratch;
  /** Recorded key (normalised) → game id. */
  keyGames: ReadonlyMap<string, string>;
  /** Game id → its scratch key. */
  keys: ReadonlyMap<string, SeedKey>;
}

export type Replayed = { reply: Reply } | { skipped: string };

const SIGNING = new Set([AGI_SIG_PARAM, AGI_SESSION_PARAM, SIGNATURE_PARAM, TIMESTAMP_PARAM]);
const UID = /^[0-9a-f]{32}$/i;

const encode = (pairs: Pairs): string =>
  pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&');
const normaliseKey = (key: string): string => key.toLowerCase().replaceAll('-', '');

function gameOf(exchange: PlatformExchange, ctx: ReplayContext): string | undefined {
  const key = param(exchange, 'api_key');
  if (key !== undefined) {
    const game = ctx.keyGames.get(normaliseKey(key));
    if (game !== undefined) return game;
  }
  const named = param(exchange, 'parent_id') ?? param(exchange, 'game_id') ?? param(exchange, 'pid');
  if (named !== undefined && ctx.keys.has(named)) return named;
  const { resource, id } = resourceOf(exchange);
  if (resource === 'achievements' && ctx.keys.has(id)) return id;
  return ctx.keys.size === 1 ? [...ctx.keys.keys()][0] : undefined;
}

export async function replay(exchange: PlatformExchange, ctx: ReplayContext): Promise<Replayed> {
  const hasKey = param(exchange, 'api_key') !== undefined;
  const game = gameOf(exchange, ctx);
  if (hasKey && game === undefined) return { skipped: 'an unknown game and no key to map' };
  const key = game === undefined ? undefined : ctx.keys.get(game);
  const { id } = resourceOf(exchange);
  const uid = UID.test(id) ? id.toLowerCase() : param(exchange, 'user_id')?.toLowerCase();
  const map = (pairs: Pairs): Pairs =>
    pairs
      .filter(([name]) => !SIGNING.has(name))
      .map(([name, value]): [string, string] => {
        if (name === 'api_key' && key) return [name, key.api_key];
        if (name === 'auth_token' && uid && UID.test(uid) && game !== undefined)
          return [name, ctx.scratch.token(uid, game)];
        return [name, value];
      });
  const query = map(exchange.query);
  const body = map(exchange.body);
  const agi = param(exchange, AGI_SIG_PARAM) !== undefined && param(exchange, AGI_SESSION_PARAM) !== undefined;
  const hmac = param(exchange, SIGNATURE_PARAM) !== undefined && param(exchange, TIMESTAMP_PARAM) !== undefined;
  const headers: Record<string, string> = { accept: 'application/json' };
  const bodyText = exchange.body.length > 0 ? encode(body) : undefined;
  if (bodyText !== undefined || exchange.method === 'POST') headers['content-type'] = FORM_CONTENT_TYPE;
  const send = (pairs: Pairs): Promise<Reply> =>
    ctx.scratch.send({
      method: exchange.method,
      url: pairs.length > 0 ? `${exchange.path}?${encode(pairs)}` : exchange.path,
      headers,
      ...(bodyText !== undefined ? { body: bodyText } : {}),
    });

  if (hmac && key) {
    const signed: Pairs = [...query, [TIMESTAMP_PARAM, String(Math.floor(Date.now() / 1000))]];
    const signature = hmacSha256Hex(
      key.signing_secret,
      canonicalString(exchange.method, exchange.path, hmacSignedPairs(signed, body)),
    );
    return { reply: await send([...signed, [SIGNATURE_PARAM, signature]]) };
  }
  if (!agi) return { reply: await send(query) };
  // A new challenge, then the request signed with it.
  const first = await send(query);
  const challenge = first.status === 401 ? envelopeOf(first.text)?.payload : undefined;
  const c = challenge !== null && typeof challenge === 'object' ? (challenge as Record<string, unknown>) : {};
  if (typeof c.session !== 'string' || typeof c.key !== 'string') return { reply: first };
  const sig = agiSignature({ session: c.session, key: c.key, path: exchange.path, query, body });
  return { reply: await send([...query, [AGI_SESSION_PARAM, c.session], [AGI_SIG_PARAM, sig]]) };
}
