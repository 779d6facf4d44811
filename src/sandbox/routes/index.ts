/** Every route of /services/rest/v1. */
import type { ApiRoute } from '../http/endpoint.js';
import { definitionsRoute, userAchievementsRoute } from './achievements.js';
import { authenticateRoute } from './authenticate.js';
import { gameSavesRoute } from './gamesaves.js';
import { productsRoute } from './products.js';
import { friendsRoute, usersRoute } from './users.js';

export const API_ROUTES: readonly ApiRoute[] = [
  authenticateRoute,
  usersRoute,
  friendsRoute,
  definitionsRoute,
  userAchievementsRoute,
  productsRoute,
  gameSavesRoute,
];
