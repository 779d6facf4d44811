/** 4.5 Users and 4.6 Friends. */
import { ROUTES } from '../../domain/contract.js';
import { PATH, QUERY } from '../http/parameters.js';
import { PAYLOADS } from '../http/payloads.js';
import { endpoint, ok, type ApiRoute } from '../http/endpoint.js';
import { fail, shown } from '../http/failure.js';
import type { ApiKeyWithGame } from '../repositories/games.js';
import { presentUser } from '../present.js';
import { friendsParams, userParams } from '../schemas.js';

/** plays_game is reported only for the key's game, and only when that game is launchable. */
export function playsGameFor(key: ApiKeyWithGame | null): string | null {
  return key?.game.launchable ? key.game.id : null;
}

export const usersRoute: ApiRoute = {
  path: `/${ROUTES.users}/:id`,
  methods: {
    GET: endpoint({
      apiKey: 'optional',
      signature: 'none',
      params: userParams,
      doc: {
        summary: 'A user (spec 4.5): full with a valid api_key, else only uid, username and avatar',
        element: PATH.userOrName,
        parameters: [QUERY.usernameFlag],
        payload: PAYLOADS.user,
        errors: [404],
      },
      handle({ repos, apiKey, origin }, lookup) {
        const user = repos.users.findPlaying(lookup.by === 'uid' ? { uid: lookup.uid } : { username: lookup.username }, playsGameFor(apiKey));
        if (!user) throw fail.notFound(lookup.by === 'uid' ? `user ${lookup.uid}` : `user named ${shown(lookup.username)}`);
        return ok(presentUser(user, { full: apiKey !== null, playsGame: user.played, origin }));
      },
    }),
  },
};

export const friendsRoute: ApiRoute = {
  path: `/${ROUTES.friends}/:id`,
  methods: {
    GET: endpoint({
      apiKey: 'required',
      signature: 'none',
      params: friendsParams,
      doc: {
        summary: "A user's friends (spec 4.6), a page at a time",
        element: PATH.uid,
        parameters: [QUERY.friendsLimit, QUERY.page, QUERY.offset],
        payload: PAYLOADS.users,
        errors: [404],
      },
      handle({ repos, apiKey, origin }, { uid, limit, offset }) {
        if (!repos.users.findByUid(uid)) throw fail.notFound(`user ${uid}`);
        const friends = repos.users.friends(uid, playsGameFor(apiKey), limit, offset);
        return ok(friends.map((f) => presentUser(f, { full: true, playsGame: f.played, origin })));
      },
    }),
  },
};
