/**
 * Game saves (SERVICE.md: Game saves; the SDK's retrieveGame / saveGame / eraseGame): per user and
 * the api_key's game, a key names a text value.
 *
 * Order of the checks on a save or an erase, so that each client learns what it must fix first:
 * parameters (400: key, data, auth_token's form) → signature (the pipeline: an unsigned agi request
 * gets its 401 challenge before anything else is judged, as the SDK expects) → user (404) →
 * auth_token (403 `invalid auth_token`) → the change (404 for an absent key, 409 past the limit).
 * So a signed request with a bad token is a 403 and uses its challenge up; nothing changes.
 */
import { ENDPOINTS } from '../../domain/endpoints.js';
import { apiRoute, endpoint, ok, type ApiRoute, type HandlerContext } from '../http/endpoint.js';
import { fail } from '../http/failure.js';
import { TooManySavesError } from '../repositories/saves.js';
import { gameSaveEraseParams, gameSaveReadParams, gameSaveWriteParams, type GameSaveEraseParams } from '../schemas.js';

function userOrFail({ repos }: HandlerContext, uid: string): void {
  if (!repos.users.findByUid(uid)) throw fail.notFound(`user ${uid}`);
}

/** A save or erase is the user's own act in this game: a live token of that user for the key's game. */
function checkToken(ctx: HandlerContext<'required'>, p: GameSaveEraseParams): void {
  userOrFail(ctx, p.uid);
  const token = ctx.repos.auth.findToken(p.authToken);
  if (!token) throw fail.invalidAuthToken('unknown token');
  if (token.uid !== p.uid) throw fail.invalidAuthToken('issued to another user');
  if (token.gameId !== ctx.apiKey.gameId) throw fail.invalidAuthToken('issued for another game');
  if (ctx.now >= token.expiresOn) throw fail.invalidAuthToken('expired');
}

const saved = (key: string) => ok({ key, success: 1 });

const eraseEndpoint = endpoint({
  row: ENDPOINTS.eraseGame,
  params: gameSaveEraseParams,
  handle(ctx, p) {
    checkToken(ctx, p);
    if (!ctx.repos.saves.erase(p.uid, ctx.apiKey.gameId, p.key)) throw fail.notFound(`save ${p.key}`);
    // The platform's storage page: the erased key with the string "deleted" (a Unity bridge checks exactly that).
    return ok({ [p.key]: 'deleted' });
  },
});

const gameSavesRoute: ApiRoute = apiRoute(
  endpoint({
    row: ENDPOINTS.getSaves,
    params: gameSaveReadParams,
    handle(ctx, p) {
      userOrFail(ctx, p.uid);
      const gameId = ctx.apiKey.gameId;
      if (p.key === undefined)
        return ok(Object.fromEntries(ctx.repos.saves.listFor(p.uid, gameId).map((s) => [s.key, s.value])));
      const save = ctx.repos.saves.get(p.uid, gameId, p.key);
      return ok(save ? { [save.key]: save.value } : {});
    },
  }),
  endpoint({
    row: ENDPOINTS.saveGame,
    params: gameSaveWriteParams,
    handle(ctx, p) {
      checkToken(ctx, p);
      try {
        ctx.repos.saves.put(p.uid, ctx.apiKey.gameId, p.key, p.data, ctx.now);
      } catch (error) {
        if (error instanceof TooManySavesError) throw fail.tooManySaves(error.limit);
        throw error;
      }
      return saved(p.key);
    },
  }),
  eraseEndpoint,
);

/** This module's routes, in the order /openapi.json lists them (routes/index.ts reads them). */
export const ROUTES: readonly ApiRoute[] = [gameSavesRoute];
