/**
 * What a route declares: per method, whether the api_key is required, whether the request must
 * be signed, how its parameters are checked (schemas.ts) and the handler. The pipeline
 * (pipeline.ts) runs these steps in one fixed order for every request.
 */
import type { ParentType } from '../../domain/types.js';
import type { ApiKeyWithGame } from '../repositories/games.js';
import type { Repositories } from '../repositories/index.js';
import type { Query } from './query.js';
import type { ParamSpec, ValueSchema } from './parameters.js';

/** What the OpenAPI description says of an operation (generated from these, see src/sandbox/openapi). */
export interface OperationDoc {
  summary: string;
  /** Its parameters besides the path element and api_key (which the rule above implies). */
  parameters: ParamSpec[];
  /** The path element (before `.json`/`.xml`). */
  element: ParamSpec;
  /** The envelope's payload on 200. */
  payload: ValueSchema;
  /** Error statuses this operation answers besides 400, 401, 405 and 429 (which every one may). */
  errors: number[];
}

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type KeyRule = 'required' | 'optional';
/** `partner-may-omit`: partner keys may leave the signature out (achievement PUTs only). */
export type SignatureRule = 'none' | 'required' | 'partner-may-omit';

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

export interface Endpoint<P, K extends KeyRule> {
  apiKey: K;
  signature: SignatureRule;
  doc: OperationDoc;
  /** Checks the query and the path element (before `.json`); throws a 400 ApiFailure. */
  params(query: Query, element: string): P;
  /**
   * The parent the request names, for the cross-game check (a key acts on its own game only);
   * undefined when it names none and the key's game is meant.
   */
  parentOf?(params: P): ParentRef | undefined;
  /** Throws ApiFailure for 404/409; returns the payload. */
  handle(ctx: HandlerContext<K>, params: P): HandlerResult;
}

/** A checked request: the parent it names and the handler to run. */
export interface PreparedRequest {
  parent: ParentRef | undefined;
  run(ctx: HandlerContext): HandlerResult;
}

/** An endpoint with its parameter type hidden: validation returns the handler to run. */
export interface BoundEndpoint {
  apiKey: KeyRule;
  signature: SignatureRule;
  doc: OperationDoc;
  prepare(query: Query, element: string): PreparedRequest;
}

export function endpoint<P, K extends KeyRule>(e: Endpoint<P, K>): BoundEndpoint {
  return {
    apiKey: e.apiKey,
    signature: e.signature,
    doc: e.doc,
    prepare(query, element) {
      const params = e.params(query, element);
      return {
        parent: e.parentOf?.(params),
        // The pipeline guarantees a key when the rule is 'required'.
        run: (ctx) => e.handle(ctx as HandlerContext<K>, params),
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
  methods: Partial<Record<ApiMethod, BoundEndpoint>>;
}
