/** 4.1 Authenticate user: a token from the token generator, for the key's game. */
import { ENDPOINTS } from '../../domain/endpoints.js';
import { apiRoute, endpoint, ok, type ApiRoute } from '../http/endpoint.js';
import { presentAuthenticated } from '../present.js';
import { authenticateParams } from '../schemas.js';

const authenticateRoute: ApiRoute = apiRoute(
  endpoint({
    row: ENDPOINTS.authenticate,
    params: authenticateParams,
    handle({ repos, apiKey, now }, { userId, authToken }) {
      // Code 200 and a null payload for every token problem (spec 7.1); the message says why.
      const token = repos.auth.findToken(authToken);
      if (!token) return { message: 'invalid token: unknown auth_token', payload: null };
      if (token.uid !== userId) return { message: 'invalid token: issued to another user', payload: null };
      // Both games named: a client whose default game changed (a loaded data file) sees which is which.
      if (token.gameId !== apiKey.gameId)
        return {
          message: `invalid token: issued for another game (${token.gameId}; this api_key is of game ${apiKey.gameId})`,
          payload: null,
        };
      if (now >= token.expiresOn) return { message: 'token expired', payload: null };
      const user = repos.users.findByUid(token.uid);
      if (!user) return { message: 'invalid token: unknown user', payload: null };
      return ok(presentAuthenticated(user));
    },
  }),
);

/** This module's routes, in the order /openapi.json lists them (routes/index.ts reads them). */
export const ROUTES: readonly ApiRoute[] = [authenticateRoute];
