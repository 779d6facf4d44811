/**
 * What a route is: the rows of the endpoint table (src/domain/endpoints.ts: api_key and signature
 * rules, parameters, payload) it serves, each with its handler and, where the declarations of its
 * parameters are not the whole check, a parser of schemas.ts. The pipeline (pipeline.ts) runs
 * these steps in one fixed order for every request.
 */
import { templateRoute, type ApiMethod, type EndpointRow, type KeyRule } from '../../domain/endpoints.js';
import { PARAMS } from '../../domain/contract.js';
import type { ParentType } from '../../domain/types.js';
import type { ApiKeyWithGame } from '../repositories/games.js';
import type { Repositories } from '../repositories/index.js';
import { rowParameters, type RowParameters } from './checked-parameters.js';
import type { Query } from './query.js';

export type { ApiMethod, KeyRule, SignatureRule } from '../../domain/endpoints.js';

export interface HandlerContext<K extends KeyRule = KeyRule> {
  repos: Repositories;
  /** The caller's key: always there when required; null when optional and missing or unknown. */
  apiKey: K extends 'required' ? ApiKeyWithGame : ApiKeyWithGame | null;
  /** Unix seconds of this request (the injected clock). */
  now: number;
  /** Scheme and host the request came to, for absolute URLs in replies (avatars). */
  origin: string;
}

export interface HandlerResult {
  message: string;
  payload: unknown;
}

export const ok = (payload: unknown): HandlerResult => ({ message: 'OK', payload });

/** The game (or website) a request names. */
export interface ParentRef {
  type: ParentType;
  id: string;
}

/** The parent of checked parameters that always name one (parentOf of most endpoints). */
export const namedParent = (p: { parentType: ParentType; parentId: string }): ParentRef => ({
  type: p.parentType,
  id: p.parentId,
});

export interface Endpoint<P, R extends EndpointRow> {
  /** The row it serves: verb, path, rules, parameters and payload. */
  row: R;
  /**
   * Checks the query and the path element; throws a 400 ApiFailure. Left out: each parameter by
   * its declaration (`rowParameters`), which is the whole check of most reads.
   */
  params?(query: Query, element: string): P;
  /**
   * The parent the request names, for the cross-game check (a key acts on its own game only);
   * undefined when it names none and the key's game is meant.
   */
  parentOf?(params: NoInfer<P>): ParentRef | undefined;
  /** Throws ApiFailure for 404/409; returns the payload. */
  handle(ctx: HandlerContext<R['apiKey']>, params: P): HandlerResult;
  /**
   * The handler of a read makes one SQL statement, which is a consistent view by itself: the
   * pipeline runs it without a transaction of its own (a BEGIN and a COMMIT less on the hottest read).
   */
  oneStatement?: boolean;
  /**
   * Its reply is the same for the same request target, key and origin while the keys, games,
   * users and plays stay as they are: the pipeline keeps it (reply-cache.ts).
   */
  cachedReply?: boolean;
}

/** A checked request: the parent it names and the handler to run. */
export interface PreparedRequest {
  parent: ParentRef | undefined;
  run(ctx: HandlerContext): HandlerResult;
}

/** An endpoint with its parameter type hidden: validation returns the handler to run. */
export interface BoundEndpoint {
  row: EndpointRow;
  /** See Endpoint.oneStatement and Endpoint.cachedReply. */
  oneStatement: boolean;
  cachedReply: boolean;
  prepare(query: Query, element: string): PreparedRequest;
}

/** The names a parent travels under (SERVICE.md: a key acts on its own game only). */
const PARENT_NAMES = [PARAMS.pid, PARAMS.parentId, PARAMS.gameId] as const;

/**
 * The parent checked parameters name by the row's declarations: the first of pid, parent_id and
 * game_id given, of `type` (Game unless it says Website). A row checked by its declarations alone
 * is held to its key's game as every other endpoint is, without a word in its handler.
 */
function declaredParent(params: Record<string, unknown>): ParentRef | undefined {
  const name = PARENT_NAMES.find((n) => typeof params[n] === 'string');
  if (name === undefined) return undefined;
  const type = String(params[PARAMS.type] ?? 'Game').toLowerCase() === 'website' ? 'Website' : 'Game';
  return { type, id: params[name] as string };
}

export function endpoint<R extends EndpointRow, P = RowParameters<R>>(e: Endpoint<P, R>): BoundEndpoint {
  const check = e.params ?? ((query: Query, element: string) => rowParameters(e.row, query, element) as P);
  const parentOf =
    e.parentOf ?? (e.params === undefined ? (p: P) => declaredParent(p as Record<string, unknown>) : undefined);
  return {
    row: e.row,
    oneStatement: e.oneStatement === true,
    cachedReply: e.cachedReply === true,
    prepare(query, element) {
      const params = check(query, element);
      return {
        parent: parentOf?.(params),
        // The pipeline guarantees a key when the rule is 'required'.
        run: (ctx) => e.handle(ctx as HandlerContext<R['apiKey']>, params),
      };
    },
  };
}

export interface ApiRoute {
  /** The rows' path template (domain/endpoints.ts), which the path is read against. */
  template: string;
  /** The router's URL of it: a placeholder before the last segment `:name`, the last `:file`. */
  url: string;
  /** The placeholder when it is not the last segment (the element is then the router's parameter). */
  elementParam: string | null;
  /** The fixed last segment (null: the last segment is the element). */
  fixedName: string | null;
  methods: Partial<Record<ApiMethod, BoundEndpoint>>;
}

/** The route of endpoints that share a path template, each under its row's verb. */
export function apiRoute(...endpoints: [BoundEndpoint, ...BoundEndpoint[]]): ApiRoute {
  const template = endpoints[0].row.path;
  return {
    template,
    ...templateRoute(template),
    methods: Object.fromEntries(endpoints.map((e) => [e.row.method, e])),
  };
}
