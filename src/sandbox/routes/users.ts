/** 4.5 Users and 4.6 Friends. */
import { ENDPOINTS } from '../../domain/endpoints.js';
import { apiRoute, endpoint, ok, type ApiRoute } from '../http/endpoint.js';
import { fail, shown } from '../http/failure.js';
import type { ApiKeyWithGame } from '../repositories/games.js';
import { presentUser } from '../present.js';
import { friendsParams, userParams } from '../schemas.js';

/** plays_game is reported only for the key's game, and only when that game is launchable. */
export function playsGameFor(key: ApiKeyWithGame | null): string | null {
  return key?.game.launchable ? key.game.id : null;
}

const usersRoute: ApiRoute = apiRoute(
  endpoint({
    row: ENDPOINTS.getUser,
    params: userParams,
    // findPlaying: the user and whether they played, in one SELECT.
    oneStatement: true,
    // Reads only the users, the plays and the key's game.
    cachedReply: true,
    handle({ repos, apiKey, origin }, lookup) {
      const user = repos.users.findPlaying(
        lookup.by === 'uid' ? { uid: lookup.uid } : { username: lookup.username },
        playsGameFor(apiKey),
      );
      if (!user)
        throw fail.notFound(lookup.by === 'uid' ? `user ${lookup.uid}` : `user named ${shown(lookup.username)}`);
      return ok(presentUser(user, { full: apiKey !== null, playsGame: user.played, origin }));
    },
  }),
);

const friendsRoute: ApiRoute = apiRoute(
  endpoint({
    row: ENDPOINTS.getFriends,
    params: friendsParams,
    handle({ repos, apiKey, origin }, { uid, limit, offset }) {
      if (!repos.users.findByUid(uid)) throw fail.notFound(`user ${uid}`);
      const friends = repos.users.friends(uid, playsGameFor(apiKey), limit, offset);
      return ok(friends.map((f) => presentUser(f, { full: true, playsGame: f.played, origin })));
    },
  }),
);

/** This module's routes, in the order /openapi.json lists them (routes/index.ts reads them). */
export const ROUTES: readonly ApiRoute[] = [usersRoute, friendsRoute];
