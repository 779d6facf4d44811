/**
 * The endpoints of /services/rest/v1 (docs/SERVICE.md), one row each: the verb, the path template,
 * the parameters (parameters.ts: name, type, bounds, pattern or choices, where they travel), the
 * payload schema (payloads.ts), the api_key and signature rules and whether a request is safe to
 * repeat. The client builds its requests from a row (src/client/endpoints.ts), the sandbox its
 * routes, parameter checks and OpenAPI description (src/sandbox/routes, openapi), `sandbox diff`
 * its schema check, and the play page its calls. A new endpoint is a row here, its repository
 * query and its handler.
 *
 * Plain data and string functions: the CLI imports it at start-up.
 */
import { ROUTES } from './contract.js';
import { PATH, QUERY, type ParamSpec, type ValueSchema } from './parameters.js';
import { PAYLOADS } from './payloads.js';
import { API_PREFIX } from './types.js';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type KeyRule = 'required' | 'optional';
/** `partner-may-omit`: partner keys may leave the signature out (achievement PUTs only). */
export type SignatureRule = 'none' | 'required' | 'partner-may-omit';

export interface EndpointRow {
  method: ApiMethod;
  /**
   * Under API_PREFIX, before `.json`/`.xml`: fixed segments and at most one placeholder `{name}`
   * anywhere (the element, declared by `element`: `users/{uid}`, `users/{uid}/stats`); without
   * one, the fixed last segment is the element (`authenticate/user`).
   */
  path: string;
  /** The path element: its name, form and description. */
  element: ParamSpec;
  /** Its parameters besides the path element and api_key (which `apiKey` implies). */
  parameters: readonly ParamSpec[];
  /** The envelope's payload on 200. */
  payload: ValueSchema;
  apiKey: KeyRule;
  signature: SignatureRule;
  /** Safe to send again after a lost reply; `unless`: not when that parameter is given (adding is not). */
  idempotent: boolean | { unless: string };
  /** What the OpenAPI description says of it. */
  summary: string;
  /** Error statuses it answers besides 400, 401, 405 and 429 (which every one may). */
  errors: readonly number[];
  /**
   * The CLI command made from the row (src/cli/endpoint-commands.ts): `udcli <name> <element>`,
   * an option for each parameter. Rows without one are reached by commands written by hand.
   */
  command?: { name: string; description: string };
}

const element = (route: string) => `${route}/{uid}`;

export const ENDPOINTS = {
  authenticate: {
    method: 'GET',
    path: ROUTES.authenticate,
    element: PATH.user,
    parameters: [QUERY.userId, QUERY.authToken],
    payload: PAYLOADS.authenticated,
    apiKey: 'required',
    signature: 'none',
    idempotent: true,
    summary:
      'Authenticate a user by a token from the token generator (spec 4.1); a bad or expired token answers 200 with a null payload and says why',
    errors: [403],
  },
  getUser: {
    method: 'GET',
    path: element(ROUTES.users),
    element: PATH.userOrName,
    parameters: [QUERY.usernameFlag],
    payload: PAYLOADS.user,
    apiKey: 'optional',
    signature: 'none',
    idempotent: true,
    summary: 'A user (spec 4.5): full with a valid api_key, else only uid, username and avatar',
    errors: [404],
  },
  getFriends: {
    method: 'GET',
    path: element(ROUTES.friends),
    element: PATH.uid,
    parameters: [QUERY.friendsLimit, QUERY.page, QUERY.offset],
    payload: PAYLOADS.users,
    apiKey: 'required',
    signature: 'none',
    idempotent: true,
    summary: "A user's friends (spec 4.6), a page at a time",
    errors: [404],
  },
  listAchievementDefinitions: {
    method: 'GET',
    path: `${ROUTES.definitions}/{parent_id}`,
    element: PATH.parentId,
    parameters: [QUERY.type, QUERY.aid, QUERY.developerId, QUERY.devId],
    payload: PAYLOADS.definitions,
    apiKey: 'required',
    signature: 'none',
    idempotent: true,
    summary: "A game's achievement definitions (spec 4.7): all, or one by aid or developer_id",
    errors: [403, 404],
  },
  listUserAchievements: {
    method: 'GET',
    path: element(ROUTES.userAchievements),
    element: PATH.uid,
    parameters: [
      QUERY.type,
      QUERY.pidOptional,
      QUERY.developerId,
      QUERY.devId,
      QUERY.filter,
      QUERY.match,
      QUERY.order,
      QUERY.sort,
      QUERY.achievementsLimit,
      QUERY.offset,
    ],
    payload: PAYLOADS.userAchievements,
    apiKey: 'required',
    signature: 'none',
    idempotent: true,
    summary: "The quests a user has started (spec 4.3; the platform's pages): a user new to the game gets []",
    errors: [403, 404],
  },
  changeUserAchievement: {
    method: 'PUT',
    path: element(ROUTES.userAchievements),
    element: PATH.uid,
    parameters: [
      QUERY.type,
      QUERY.pidRequired,
      QUERY.developerId,
      QUERY.devId,
      QUERY.increment,
      QUERY.progress,
      QUERY.reset,
    ],
    payload: PAYLOADS.update,
    apiKey: 'required',
    signature: 'partner-may-omit',
    // Setting progress and resetting are safe to repeat; adding is not.
    idempotent: { unless: QUERY.increment.name },
    summary:
      "Change a user's progress (spec 4.3): exactly one of increment, progress, reset (a reset starts a quest never started); signed (a partner key may leave the signature out); a Revoked quest: 409",
    errors: [403, 404, 409],
  },
  deleteUserAchievement: {
    method: 'DELETE',
    path: element(ROUTES.userAchievements),
    element: PATH.uid,
    parameters: [QUERY.type, QUERY.pidRequired, QUERY.developerId, QUERY.devId],
    payload: PAYLOADS.userAchievement,
    apiKey: 'required',
    signature: 'none',
    idempotent: true,
    summary: "Delete a user's record of an achievement (spec 4.3); the reply is the record as it was",
    errors: [403, 404],
  },
  listProducts: {
    method: 'GET',
    path: element(ROUTES.products),
    element: PATH.uid,
    parameters: [QUERY.type, QUERY.parentId, QUERY.gameId, QUERY.skuFilter],
    payload: PAYLOADS.products,
    apiKey: 'required',
    signature: 'none',
    idempotent: true,
    summary: "Every product of the game with the user's holding of it (spec 4.4)",
    errors: [403, 404],
  },
  grantProduct: {
    method: 'POST',
    path: element(ROUTES.products),
    element: PATH.uid,
    parameters: [QUERY.type, QUERY.parentId, QUERY.gameId, QUERY.sku, QUERY.qty],
    payload: PAYLOADS.product,
    apiKey: 'required',
    signature: 'none',
    idempotent: false,
    summary:
      'Grant (spec 4.4: a purchase or gift of a product on sale; unsigned): qty packs of the pack named (`gems:500`, qty 2: 1,000 units), or qty units of a base',
    errors: [403, 404],
  },
  adjustProduct: {
    method: 'PUT',
    path: element(ROUTES.products),
    element: PATH.uid,
    parameters: [
      QUERY.type,
      QUERY.parentId,
      QUERY.gameId,
      QUERY.sku,
      QUERY.qty,
      QUERY.incrementFlag,
      QUERY.decrementFlag,
    ],
    payload: PAYLOADS.product,
    apiKey: 'required',
    signature: 'required',
    idempotent: false,
    summary:
      'Add or take qty units, whatever the sku names (spec 4.4; signed): exactly one of increment=true, decrement=true',
    errors: [403, 404, 409],
  },
  getSaves: {
    method: 'GET',
    path: element(ROUTES.saves),
    element: PATH.uid,
    parameters: [QUERY.saveKeyOptional],
    payload: PAYLOADS.saves,
    apiKey: 'required',
    signature: 'none',
    idempotent: true,
    summary:
      "A user's save for the api_key's game (the SDK's retrieveGame): {key: value}, or {} when none; without key, every save of the user and game (a sandbox extension, not the platform's)",
    errors: [404],
  },
  saveGame: {
    method: 'POST',
    path: element(ROUTES.saves),
    element: PATH.uid,
    parameters: [QUERY.saveKey, QUERY.authToken, QUERY.saveData],
    payload: PAYLOADS.saveResult,
    apiKey: 'required',
    signature: 'required',
    // Storing the same value again leaves the same state.
    idempotent: true,
    summary:
      "Save (create or replace) a value under key (the SDK's saveGame: data in the form body); needs the user's auth_token for the key's game; signed",
    errors: [403, 404, 409],
  },
  eraseGame: {
    method: 'DELETE',
    path: element(ROUTES.saves),
    element: PATH.uid,
    parameters: [QUERY.saveKey, QUERY.authToken],
    payload: PAYLOADS.eraseResult,
    apiKey: 'required',
    signature: 'required',
    idempotent: true,
    summary:
      "Erase a save (the SDK's eraseGame: POST with method=delete); needs the user's auth_token for the key's game; signed",
    errors: [403, 404],
  },
} as const satisfies Record<string, EndpointRow>;

export type EndpointName = keyof typeof ENDPOINTS;

/** The names of the parameters a row declares (the client may send these only). */
export type ParameterOf<R extends EndpointRow> = R['parameters'][number]['name'];

/** The declaration of a parameter a row names (a bound or cap read from the row, not repeated). */
export function parameterOf<R extends EndpointRow, N extends ParameterOf<R>>(
  row: R,
  name: N,
): Extract<R['parameters'][number], { name: N }> {
  const spec = row.parameters.find((p) => p.name === name);
  if (spec === undefined) throw new Error(`the row declares no parameter ${name}`);
  return spec as Extract<R['parameters'][number], { name: N }>;
}

// --- the path shape `/<segment>/…/<last>.<format>`, built and read here only -----------------------
// Any segment may be the row's one placeholder, its element (`users/{uid}`, `users/{uid}/stats`);
// without one the last segment is fixed (`authenticate/user`) and is the element.

const PLACEHOLDER = /^\{([^}]+)\}$/;

/** The template's segments: fixed text, or the placeholder's name. */
function segmentsOf(template: string): Array<{ fixed: string } | { placeholder: string }> {
  return template.split('/').map((segment) => {
    const name = PLACEHOLDER.exec(segment)?.[1];
    return name === undefined ? { fixed: segment } : { placeholder: name };
  });
}

/**
 * How a router reads a template: its URL under the prefix (a placeholder before the last segment
 * as `:name`, the last segment always `:file`, which carries the format), the placeholder's name
 * when it is not the last segment, and the last segment's fixed name (null: the element).
 */
export function templateRoute(template: string): {
  url: string;
  elementParam: string | null;
  fixedName: string | null;
} {
  const segments = segmentsOf(template);
  const last = segments.at(-1)!;
  const inner = segments.slice(0, -1);
  const placeholder = inner.find((s) => 'placeholder' in s);
  return {
    url: `${API_PREFIX}/${[...inner.map((s) => ('fixed' in s ? s.fixed : `:${s.placeholder}`)), ':file'].join('/')}`,
    elementParam: placeholder && 'placeholder' in placeholder ? placeholder.placeholder : null,
    fixedName: 'fixed' in last ? last.fixed : null,
  };
}

/** `/services/rest/v1/<template>.json`, the placeholder the element, encoded (a template without one takes none). */
export function servicePath(template: string, element?: string): string {
  const path = segmentsOf(template)
    .map((s) => ('fixed' in s ? s.fixed : encodeURIComponent(element ?? '')))
    .join('/');
  return `${API_PREFIX}/${path}.json`;
}

export type Format = 'json' | 'xml';

/** The last segment `<element>.json` or `.xml` (lower case), or null when it is neither. */
export function splitFile(file: string): { element: string; format: Format } | null {
  const match = /^(.+)\.(json|xml)$/.exec(file);
  return match ? { element: match[1]!, format: match[2] as Format } : null;
}

/** A path under the prefix as its directory and last segment, or null when it is not under it. */
export function splitServicePath(path: string): { dir: string; file: string } | null {
  if (!path.startsWith(`${API_PREFIX}/`)) return null;
  const rest = path.slice(API_PREFIX.length + 1);
  const slash = rest.lastIndexOf('/');
  return { dir: slash === -1 ? '' : rest.slice(0, slash), file: rest.slice(slash + 1) };
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * A path read against a template: the element (the placeholder's value, decoded, else the fixed
 * last segment) and the format; null when the path is not the template's.
 */
export function matchPath(template: string, path: string): { element: string; format: Format } | null {
  const split = splitServicePath(path);
  const file = split && splitFile(split.file);
  if (!file) return null;
  const given = [...(split!.dir === '' ? [] : split!.dir.split('/')), file.element];
  const segments = segmentsOf(template);
  if (given.length !== segments.length) return null;
  let element: string | null = null;
  for (const [i, segment] of segments.entries()) {
    if ('fixed' in segment) {
      if (segment.fixed !== given[i]) return null;
      if (i === segments.length - 1 && element === null) element = segment.fixed;
    } else {
      element = given[i] === '' ? null : decoded(given[i]!);
      if (element === null) return null;
    }
  }
  return { element: element!, format: file.format };
}

/** Whether a path is the template's: under the prefix, its segments, and `.json` or `.xml`. */
export function pathMatches(template: string, path: string): boolean {
  return matchPath(template, path) !== null;
}

/** The row of a verb at a directory and element (a recorded exchange's `resource` and `id`), if any. */
export function endpointAt(method: string, dir: string, element: string): EndpointRow | undefined {
  const path = `${API_PREFIX}/${dir === '' ? '' : `${dir}/`}${encodeURIComponent(element)}.json`;
  return Object.values(ENDPOINTS).find((row: EndpointRow) => row.method === method && pathMatches(row.path, path));
}
