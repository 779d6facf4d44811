/**
 * What a route is: the rows of the endpoint table (src/domain/endpoints.ts: api_key and signature
 * rules, parameters, payload) it serves, each with how its parameters are checked (schemas.ts)
 * and its handler. The pipeline (pipeline.ts) runs these steps in one fixed order for every request.
 */
import { templateParts, type ApiMethod, type EndpointRow, type KeyRule } from '../../domain/endpoints.js';
import type { ParentType } from '../../domain/types.js';
import type { ApiKeyWithGame } from '../repositories/games.js';
import type { Repositories } from '../repositories/index.js';
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
  /** Checks the query and the path element (before `.json`); throws a 400 ApiFailure. */
  params(query: Query, element: string): P;
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

export function endpoint<P, R extends EndpointRow>(e: Endpoint<P, R>): BoundEndpoint {
  return {
    row: e.row,
    oneStatement: e.oneStatement === true,
    cachedReply: e.cachedReply === true,
    prepare(query, element) {
      const params = e.params(query, element);
      return {
        parent: e.parentOf?.(params),
        // The pipeline guarantees a key when the rule is 'required'.
        run: (ctx) => e.handle(ctx as HandlerContext<R['apiKey']>, params),
      };
    },
  };
}

export interface ApiRoute {
  /**
   * Path under /services/rest/v1 without the `.json`/`.xml` extension. The last segment is
   * `:id` (any element, handed to the endpoint) or a fixed name (e.g. `/authenticate/user`).
   */
  path: string;
  /** The rows' path template (domain/endpoints.ts), which the path is read against. */
  template: string;
  methods: Partial<Record<ApiMethod, BoundEndpoint>>;
}

/** The route of endpoints that share a path template, each under its row's verb. */
export function apiRoute(...endpoints: [BoundEndpoint, ...BoundEndpoint[]]): ApiRoute {
  const template = endpoints[0].row.path;
  const { dir, fixedName } = templateParts(template);
  return {
    path: `/${dir}/${fixedName ?? ':id'}`,
    template,
    methods: Object.fromEntries(endpoints.map((e) => [e.row.method, e])),
  };
}
