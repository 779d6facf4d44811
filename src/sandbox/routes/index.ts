/**
 * Every route of /services/rest/v1: each module's list, in this order. A new handler joins the
 * list of the module it is written in; only a new module is a line here.
 */
import type { ApiRoute } from '../http/endpoint.js';
import { ROUTES as ACHIEVEMENTS } from './achievements.js';
import { ROUTES as AUTHENTICATE } from './authenticate.js';
import { ROUTES as GAMESAVES } from './gamesaves.js';
import { ROUTES as PRODUCTS } from './products.js';
import { ROUTES as USERS } from './users.js';

export const API_ROUTES: readonly ApiRoute[] = [...AUTHENTICATE, ...USERS, ...ACHIEVEMENTS, ...PRODUCTS, ...GAMESAVES];
