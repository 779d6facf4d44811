/**
 * The API client's public surface. Commands and the batch runner depend on this interface only;
 * src/client/client.ts implements it (node:http for one command, undici for a batch). One client
 * object is created per run by the CLI factory and passed in, never imported as a global.
 */
import type { RecordedExchange } from '../har/entry.js';
import type { AgiChallenge } from '../domain/agi-signing.js';
import type { SigningScheme } from '../domain/contract.js';
import type { EndpointRow, ParameterOf } from '../domain/endpoints.js';
import type { FromSchema } from '../domain/schema-type.js';
import type { QueryParams } from '../domain/signing.js';
import type {
  AchievementDefinition,
  AchievementUpdate,
  AuthenticatedUser,
  Envelope,
  Friend,
  ParentType,
  ProductEntry,
  TokenRecord,
  User,
  UserAchievement,
} from '../domain/types.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Signer {
  readonly scheme: SigningScheme;
  /**
   * True for `agi`: the server hands out the session and key to sign with (a 401 challenge to the
   * unsigned request), so sign() needs `challenge`.
   */
  readonly needsChallenge: boolean;
  /**
   * Returns the parameters to send: the given ones plus `timestamp` and `signature` for
   * hmac-sha256-v1, `session` and `sig` for agi, unchanged for `none`. `canonical` is the string
   * that was signed (for --dry-run; agi's joined string), `sortedValues` agi's sorted values.
   */
  sign(
    httpMethod: HttpMethod,
    path: string,
    params: QueryParams,
    nowSeconds: number,
    challenge?: AgiChallenge,
    /** Form-body fields: signed with the query by both schemes (SERVICE.md: Parameters in a form body). */
    body?: QueryParams,
  ): {
    params: Array<[string, string]>;
    canonical?: string;
    sortedValues?: string[];
  };
}

export interface ClientOptions {
  baseUrl: string;
  /** Where /login and the token generator live; defaults to baseUrl. */
  siteUrl?: string;
  /** Added as `api_key` to every service request unless the request opts out. */
  apiKey?: string;
  signer: Signer;
  /**
   * Send PUT and DELETE as POST with `method=put|delete` and a form content type, as the
   * platform's SDK does (profile key verb_override; default on under agi).
   */
  verbOverride?: boolean;
  timeoutMs: number;
  /** Retries for requests that are safe to repeat (docs/CLI.md "Retries"). */
  retries: number;
  /** Pool size per origin; the batch runner sets it to its concurrency. */
  connections?: number;
  /** --verbose: one line per request and reply, secrets already redacted. */
  trace?: (line: string) => void;
  /** --har: told of every exchange (each attempt, retry and challenge), the failed ones too. */
  record?: (exchange: RecordedExchange) => void;
  /** Injected clocks so tests need no timers; default Date.now()/1000 and setTimeout. */
  nowSeconds?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Everything the server said, so commands can print the payload, the envelope, or the raw body. */
export interface Reply<T> {
  payload: T;
  envelope: Envelope<T>;
  /** The body exactly as received (for --raw). */
  bodyText: string;
  httpStatus: number;
}

export interface RequestSpec {
  method: HttpMethod;
  /** Path from the origin, e.g. /services/rest/v1/users/<uid>.json */
  path: string;
  query?: QueryParams;
  /**
   * Fields sent in an `application/x-www-form-urlencoded` body (a game save's `data`, too long
   * for a query); only with POST. Signed with the query.
   */
  body?: QueryParams;
  /** Sign with the client's signer (signed PUTs of the contract). */
  sign?: boolean;
  /** Safe to repeat after it may have reached the server (GET, set, reset, delete). */
  idempotent: boolean;
  /** 'site' sends to siteUrl (login, token generator) and expects no envelope. Default 'api'. */
  base?: 'api' | 'site';
  /** Leave out the api_key (users --public). */
  withoutApiKey?: boolean;
  headers?: Record<string, string>;
  /**
   * Awaited once before anything that may change state is sent (the state read before a change,
   * journaled). Under agi, once the server has challenged this client, the unsigned first request
   * (which changes nothing) is sent while it runs: one round trip less per change. Its failure
   * fails the request as not sent.
   */
  beforeChange?: () => Promise<void>;
}

/** What --dry-run shows: the exact request, secrets redacted, and the canonical string. */
export interface PreparedRequest {
  method: HttpMethod;
  url: string;
  redactedUrl: string;
  /** hmac: the canonical string; agi: the joined string (with placeholder session and key). */
  canonical?: string;
  /** agi: the signed values, sorted. */
  sortedValues?: string[];
  /** agi: the session and key used are placeholders (the server hands out real ones). */
  placeholderChallenge?: boolean;
  headers?: Record<string, string>;
}

export interface AchievementTarget {
  type: ParentType;
  /** Game or website id (`pid`). */
  pid: string;
  developerId: string;
}

export interface AchievementListQuery {
  type: ParentType;
  pid: string;
  developerId?: string;
  limit?: number;
  offset?: number;
  order?: string;
  sort?: 'asc' | 'desc';
  filter?: string;
  match?: string;
}

export type AchievementChange = { increment: number } | { progress: number } | { reset: true };

export interface ProductTarget {
  parentId: string;
  type?: ParentType;
  sku: string;
}

/** The payload of a save (docs/PLATFORM.md: 1 done, 0 failed). */
export interface SaveResult {
  key: string;
  success: number;
}

/** The payload of an erase (the platform's storage page): `{"<key>": "deleted"}`. */
export type EraseResult = Record<string, unknown>;

/** Values of the parameters a row declares, by name (an undefined one is not sent). */
export type RowArguments<R extends EndpointRow> = Partial<Record<ParameterOf<R>, string | number | boolean>>;

export interface ApiClient {
  /** Any request (used by `udcli api` and the typed methods below). Throws typed errors from src/errors.ts. */
  request<T = unknown>(spec: RequestSpec): Promise<Reply<T>>;
  /** The request `request()` would send, without sending it. */
  prepare(spec: RequestSpec): PreparedRequest;

  /**
   * The request a row of the endpoint table makes (its verb, path, signing, repeatability), with
   * the parameters it declares; the reply typed by the row's payload schema. A row's derived
   * command (src/cli/endpoint-commands.ts) calls it; the methods below add what a row cannot say.
   */
  send<R extends EndpointRow>(
    row: R,
    element: string | undefined,
    parameters?: RowArguments<R>,
  ): Promise<Reply<FromSchema<R['payload']>>>;
  /** Payload null means not authenticated; the caller decides (exit 3). */
  authenticate(userId: string, authToken: string): Promise<Reply<AuthenticatedUser | null>>;
  /** Sandbox login: returns the session cookie to send to the token generator. */
  siteLogin(username: string): Promise<string>;
  /** Spec 4.2; the reply is not an envelope. */
  generateToken(gameId: string, cookie: string): Promise<{ record: TokenRecord; bodyText: string }>;

  getUser(idOrUsername: string, options?: { byUsername?: boolean; publicOnly?: boolean }): Promise<Reply<User>>;
  getFriends(uid: string, page: { limit?: number; offset?: number; page?: number }): Promise<Reply<Friend[]>>;
  /**
   * Every friend, a page of `pageSize` (max 500) at a time, streamed: memory stays flat. Pages, not
   * single friends, because a step of an async iterator per friend was a third of what
   * `friends --all` allocated.
   */
  friendPages(uid: string, pageSize?: number): AsyncIterable<Friend[]>;

  listAchievementDefinitions(
    parentId: string,
    query?: { type?: ParentType; aid?: number; developerId?: string },
  ): Promise<Reply<AchievementDefinition[]>>;
  listUserAchievements(uid: string, query: AchievementListQuery): Promise<Reply<UserAchievement[]>>;
  /** Signed PUT. increment is not idempotent (never retried once sent); progress and reset are. */
  changeUserAchievement(
    uid: string,
    target: AchievementTarget,
    change: AchievementChange,
  ): Promise<Reply<AchievementUpdate>>;
  deleteUserAchievement(uid: string, target: AchievementTarget): Promise<Reply<UserAchievement>>;

  listProducts(
    uid: string,
    query: { parentId: string; type?: ParentType; sku?: string },
  ): Promise<Reply<ProductEntry[]>>;
  /** POST qty: a grant (purchase or gift); unsigned; not idempotent. */
  grantProduct(uid: string, target: ProductTarget, qty: number): Promise<Reply<ProductEntry>>;
  /** Signed PUT increment=true / decrement=true; not idempotent. */
  adjustProduct(
    uid: string,
    target: ProductTarget,
    qty: number,
    direction: 'increment' | 'decrement',
  ): Promise<Reply<ProductEntry>>;

  /** Game saves of the api_key's game: `{key: value}` of one key (`{}` when absent), or of every key. */
  getSaves(uid: string, key?: string): Promise<Reply<Record<string, string>>>;
  /** Signed POST, `data` in the form body; needs the user's auth token. Replacing a value is safe to repeat. */
  saveGame(uid: string, key: string, value: string, authToken: string): Promise<Reply<SaveResult>>;
  /** Signed erase (DELETE, or POST method=delete under the verb override); 404 when nothing is saved. */
  eraseGame(uid: string, key: string, authToken: string): Promise<Reply<EraseResult>>;

  /**
   * The same client, whose requests first pass `beforeChange` (see RequestSpec). A client without
   * it runs the hook first and then the change, one after the other.
   */
  gated?(beforeChange: () => Promise<void>): ApiClient;

  close(): Promise<void>;
}
